// Expected digests from Python's hashlib.sha256(...).hexdigest().
#include "reference/base/sha256.h"

#include <gtest/gtest.h>

namespace tdc {
namespace {

TEST(Sha256, MatchesHashlib) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Padding edges: 55 bytes fit one block with the length, 56 need two; 64 is one full block.
  EXPECT_EQ(Sha256Hex(std::string(55, 'a')),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(Sha256Hex(std::string(56, 'a')),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(Sha256Hex(std::string(64, 'a')),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  EXPECT_EQ(Sha256Hex(std::string(1000, 'a')),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  std::string all_bytes;
  for (int r = 0; r < 3; ++r) {
    for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
  }
  EXPECT_EQ(Sha256Hex(all_bytes),
            "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
}

}  // namespace
}  // namespace tdc
