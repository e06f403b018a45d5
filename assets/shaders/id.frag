// One flat colour per body, unlit: the body index plus one in the RGB bytes (SceneRenderer::
// renderIds), read back exactly as the framebuffer has no blending or multisampling.
uniform vec3 uColor;

out vec4 fragColor;

void main() { fragColor = vec4(uColor, 1.0); }
