// The ground: lit and shadowed, with 10 cm and 1 m grid lines antialiased over one pixel, and
// faded into the background with distance so the plane has no visible edge.
in vec3 vWorldPosition;
in vec4 vLightClip;

uniform vec3 uColor;      // sRGB
uniform vec3 uLineColor;  // sRGB
uniform vec3 uFogColor;   // sRGB, the clear colour
uniform float uFogStart;
uniform float uFogEnd;
uniform bool uShowGrid;

out vec4 fragColor;

// 1 on a line of the grid with the given spacing, 0 away from it.
float gridLine(vec2 p, float spacing) {
  vec2 cell = p / spacing;
  vec2 width = fwidth(cell);
  vec2 distanceToLine = abs(fract(cell - 0.5) - 0.5) / max(width, vec2(1e-6));
  return 1.0 - min(min(distanceToLine.x, distanceToLine.y), 1.0);
}

void main() {
  vec3 n = vec3(0.0, 0.0, 1.0);
  vec3 albedo = toLinear(uColor);
  if (uShowGrid) {
    vec2 p = vWorldPosition.xy;
    float minor = gridLine(p, 0.1) * 0.35;
    float major = gridLine(p, 1.0);
    albedo = mix(albedo, toLinear(uLineColor), max(minor, major));
  }
  float shadow = shadowFactor(vLightClip, n);
  vec3 color = shade(albedo, n, vWorldPosition, shadow, 16.0, 0.05);
  float distanceToCamera = length(uCameraPosition - vWorldPosition);
  float fog = smoothstep(uFogStart, uFogEnd, distanceToCamera);
  fragColor = vec4(mix(toDisplay(color), uFogColor, fog), 1.0);
}
