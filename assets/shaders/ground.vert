// The ground: one large quad in the plane z = uHeight, around the orbit target.
layout(location = 0) in vec2 aCorner;  // in [-1, 1]^2

uniform float uHeight;
uniform float uHalfSize;
uniform vec2 uCenter;
uniform mat4 uViewProjection;
uniform mat4 uLightViewProjection;

out vec3 vWorldPosition;
out vec4 vLightClip;

void main() {
  vec4 world = vec4(uCenter + aCorner * uHalfSize, uHeight, 1.0);
  vWorldPosition = world.xyz;
  vLightClip = uLightViewProjection * world;
  gl_Position = uViewProjection * world;
}
