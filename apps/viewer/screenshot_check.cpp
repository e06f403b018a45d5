// hb-screenshot-check FILE WIDTH HEIGHT: exits 0 when FILE is a WIDTH x HEIGHT picture with
// something in it — many distinct colours, a spread of brightness, and a centre region that
// differs from the background in the top-left corner. Used by the viewer's scripted-run test.

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>

#include "render/image.hpp"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: hb-screenshot-check FILE WIDTH HEIGHT\n");
    return 2;
  }
  hb::Image image;
  try {
    image = hb::loadImage(argv[1], 1 << 16);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  const int width = std::atoi(argv[2]), height = std::atoi(argv[3]);
  if (image.width != width || image.height != height) {
    std::fprintf(stderr, "%s is %dx%d, expected %dx%d\n", argv[1], image.width, image.height, width,
                 height);
    return 1;
  }
  const auto pixel = [&](int x, int y, int c) {
    return image.pixels[(size_t(y) * image.width + x) * image.channels + c];
  };
  // Colours quantised to 5 bits a channel; brightness mean and spread.
  std::set<int> colours;
  double sum = 0.0, sumSquares = 0.0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int r = pixel(x, y, 0), g = pixel(x, y, 1), b = pixel(x, y, 2);
      colours.insert((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3));
      const double luma = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += luma;
      sumSquares += luma * luma;
    }
  }
  const double n = double(width) * height;
  const double stddev = std::sqrt(std::max(0.0, sumSquares / n - (sum / n) * (sum / n)));
  // The centre: how many pixels differ clearly from the top-left corner's colour (background).
  int differing = 0, centre = 0;
  for (int y = height * 2 / 5; y < height * 3 / 5; ++y) {
    for (int x = width * 2 / 5; x < width * 3 / 5; ++x, ++centre) {
      int d = 0;
      for (int c = 0; c < 3; ++c) d += std::abs(pixel(x, y, c) - pixel(2, 2, c));
      if (d > 24) ++differing;
    }
  }
  const double centreShare = double(differing) / centre;
  std::printf(
      "%s: %dx%d, %zu colours, brightness stddev %.1f, %.0f%% of the centre differs from the "
      "background\n",
      argv[1], width, height, colours.size(), stddev, 100.0 * centreShare);
  const bool ok = colours.size() >= 200 && stddev >= 8.0 && centreShare >= 0.2;
  if (!ok) std::fprintf(stderr, "the image looks blank\n");
  return ok ? 0 : 1;
}
