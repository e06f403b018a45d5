// Bodies: model -> world -> clip, with the world position, normal and light-space position
// passed on for lighting and shadows.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv;

uniform mat4 uModel;
uniform mat3 uNormalMatrix;
uniform mat4 uViewProjection;
uniform mat4 uLightViewProjection;

out vec3 vWorldPosition;
out vec3 vNormal;
out vec2 vUv;
out vec4 vLightClip;

void main() {
  vec4 world = uModel * vec4(aPosition, 1.0);
  vWorldPosition = world.xyz;
  vNormal = uNormalMatrix * aNormal;
  // OBJ texture coordinates start at the bottom row; images are uploaded top row first.
  vUv = vec2(aUv.x, 1.0 - aUv.y);
  vLightClip = uLightViewProjection * world;
  gl_Position = uViewProjection * world;
}
