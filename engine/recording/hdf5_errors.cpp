#include "engine/recording/hdf5_errors.hpp"

#include <algorithm>
#include <vector>

namespace hb::recording {
namespace {

herr_t collectMessage(unsigned /*n*/, const H5E_error2_t* error, void* data) {
  auto* messages = static_cast<std::vector<std::string>*>(data);
  if (error->desc && *error->desc) messages->emplace_back(error->desc);
  return 0;
}

}  // namespace

void silenceHdf5Errors() {
  thread_local bool silenced = false;
  if (silenced) return;
  H5::Exception::dontPrint();
  silenced = true;
}

std::string describe(const H5::Exception& e) {
  std::string text =
      e.getFuncName().empty() ? e.getDetailMsg() : e.getFuncName() + ": " + e.getDetailMsg();
  // The stack still holds the failed call's records: the innermost ones say why (bad
  // signature, truncated file, missing object), the outer ones only which call failed.
  std::vector<std::string> messages;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collectMessage, &messages);
  const std::size_t shown = std::min<std::size_t>(messages.size(), 2);
  for (std::size_t i = 0; i < shown; ++i) text += (i == 0 ? " (" : "; ") + messages[i];
  if (shown > 0) text += ")";
  return text;
}

}  // namespace hb::recording
