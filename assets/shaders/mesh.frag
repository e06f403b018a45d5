// Bodies: textured or flat albedo, Blinn-Phong with shadows. Translucent surfaces (the funnel)
// grow more opaque at grazing angles so their outline stays readable.
in vec3 vWorldPosition;
in vec3 vNormal;
in vec2 vUv;
in vec4 vLightClip;

uniform vec3 uColor;  // sRGB
uniform vec3 uTint;   // multiplies the albedo (sleeping bodies)
uniform bool uUseTexture;
uniform sampler2D uTexture;
uniform float uAlpha;
uniform vec3 uEmissive;  // linear, added (selection and hover highlights)
uniform float uShininess;
uniform float uSpecular;

out vec4 fragColor;

void main() {
  vec3 albedo = toLinear(uUseTexture ? texture(uTexture, vUv).rgb : uColor) * uTint;
  // The back faces seen through the glass walls are lit as the side facing the camera.
  vec3 n = normalize(gl_FrontFacing ? vNormal : -vNormal);
  float shadow = shadowFactor(vLightClip, n);
  vec3 color = shade(albedo, n, vWorldPosition, shadow, uShininess, uSpecular) + uEmissive;
  float alpha = uAlpha;
  if (alpha < 1.0) {
    vec3 v = normalize(uCameraPosition - vWorldPosition);
    float facing = abs(dot(n, v));
    alpha = mix(alpha, min(1.0, alpha * 3.0), pow(1.0 - facing, 3.0));
  }
  fragColor = vec4(toDisplay(color), alpha);
}
