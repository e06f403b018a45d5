#pragma once
// The one include for OpenGL declarations in heavyball: glad's 3.3 core loader, generated at
// build time. GLFW is built with GLFW_INCLUDE_NONE so that it never brings a GL header of its own.

#include <glad/gl.h>
