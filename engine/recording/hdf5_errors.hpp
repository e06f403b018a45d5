#pragma once
// HDF5 error handling for recordings: HDF5 prints its error stack to stderr by default, which a
// library must not do, and its exceptions carry only the failing call's name. Internal to
// hb_engine (includes the HDF5 headers).

#include <H5Cpp.h>

#include <string>

namespace hb::recording {

/// Turns off HDF5's automatic error printing for the calling thread (HDF5 keeps one error stack
/// per thread). Cheap after the first call on a thread.
void silenceHdf5Errors();

/// The failing call and the innermost reasons HDF5 recorded on the calling thread's error stack,
/// e.g. "H5Fopen failed: truncated file: eof = 4096, ...".
std::string describe(const H5::Exception& e);

}  // namespace hb::recording
