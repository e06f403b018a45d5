// Shared by the fragment shaders that light surfaces: one directional light with a shadow map,
// Blinn-Phong specular, a sky/ground hemisphere ambient, and colours handled in linear space.

uniform vec3 uLightDirection;  // unit, from the surface towards the light
uniform vec3 uLightColor;
uniform vec3 uSkyAmbient;
uniform vec3 uGroundAmbient;
uniform vec3 uCameraPosition;
uniform sampler2DShadow uShadowMap;
uniform float uShadowTexel;    // 1 / shadow map size
uniform bool uShadowsEnabled;

vec3 toLinear(vec3 srgb) { return pow(srgb, vec3(2.2)); }
vec3 toDisplay(vec3 linear) { return pow(linear, vec3(1.0 / 2.2)); }

// Fraction of light reaching the point. Four depth-compared taps half a texel around it, each
// filtered bilinearly by the hardware, average a 3x3-texel footprint for the price of four.
// The depth bias grows with the slope between the surface and the light to keep grazing
// surfaces free of acne.
float shadowFactor(vec4 lightClip, vec3 normal) {
  if (!uShadowsEnabled) return 1.0;
  vec3 p = lightClip.xyz / lightClip.w * 0.5 + 0.5;
  if (p.z >= 1.0 || p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0) return 1.0;
  float cosine = clamp(abs(dot(normal, uLightDirection)), 0.05, 1.0);
  float bias = clamp(0.0004 * sqrt(1.0 - cosine * cosine) / cosine, 0.0001, 0.004);
  float h = 0.5 * uShadowTexel;
  float lit = texture(uShadowMap, vec3(p.xy + vec2(-h, -h), p.z - bias)) +
              texture(uShadowMap, vec3(p.xy + vec2(h, -h), p.z - bias)) +
              texture(uShadowMap, vec3(p.xy + vec2(-h, h), p.z - bias)) +
              texture(uShadowMap, vec3(p.xy + vec2(h, h), p.z - bias));
  return 0.25 * lit;
}

// Linear radiance leaving the surface towards the camera.
vec3 shade(vec3 albedo, vec3 normal, vec3 worldPosition, float shadow, float shininess,
           float specular) {
  vec3 n = normalize(normal);
  vec3 v = normalize(uCameraPosition - worldPosition);
  vec3 h = normalize(uLightDirection + v);
  float diffuse = max(dot(n, uLightDirection), 0.0);
  float highlight = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), shininess) : 0.0;
  vec3 ambient = mix(uGroundAmbient, uSkyAmbient, 0.5 + 0.5 * n.z);
  return albedo * (ambient + uLightColor * diffuse * shadow) +
         uLightColor * specular * highlight * shadow;
}
