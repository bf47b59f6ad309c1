// The defaults derived from the input's size and the cluster (jobs/sized_defaults.h).
#include "jobs/sized_defaults.h"

#include <gtest/gtest.h>

namespace mr::jobs {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(SizedDefaultsTest, SmallInputsKeepTheFixedDefaults) {
  const SizedDefaults d = DeriveSizedDefaults(kSizedInputBytes - 1, {2, 2});
  EXPECT_EQ(d.split_bytes, 32 * kMiB);
  EXPECT_EQ(d.reducers, 1u);
  EXPECT_EQ(d.sort_buffer_bytes, 100 * kMiB);
}

TEST(SizedDefaultsTest, LargeInputsUseEveryReduceSlotAndAFewMapWaves) {
  // 512 MiB on 2 map slots: 512 / (4 waves x 2) = 64 MiB splits; 2 reduce slots, 2 reducers.
  SizedDefaults d = DeriveSizedDefaults(512 * kMiB, {2, 2});
  EXPECT_EQ(d.split_bytes, 64 * kMiB);
  EXPECT_EQ(d.reducers, 2u);
  EXPECT_EQ(d.sort_buffer_bytes, 100 * kMiB);  // 1.5 x 64 MiB < 100 MiB
  // 4 GiB: 512 MiB per wave, capped at 128 MiB; the buffer holds one split and its entries.
  d = DeriveSizedDefaults(4096 * kMiB, {2, 2});
  EXPECT_EQ(d.split_bytes, 128 * kMiB);
  EXPECT_EQ(d.sort_buffer_bytes, 192 * kMiB);
  // The buffer does not grow with the input past the split cap.
  EXPECT_EQ(DeriveSizedDefaults(16384 * kMiB, {2, 2}).sort_buffer_bytes, 192 * kMiB);
  // 64 MiB is the threshold: the split is at least 32 MiB; 8 reduce slots, 8 reducers.
  d = DeriveSizedDefaults(kSizedInputBytes, {2, 8});
  EXPECT_EQ(d.split_bytes, 32 * kMiB);
  EXPECT_EQ(d.reducers, 8u);
  // Splits round up to whole MiB: 600 MiB / 8 = 75 MiB exactly; 601 MiB / 8 = 75.125 -> 76.
  EXPECT_EQ(DeriveSizedDefaults(600 * kMiB, {2, 2}).split_bytes, 75 * kMiB);
  EXPECT_EQ(DeriveSizedDefaults(601 * kMiB, {2, 2}).split_bytes, 76 * kMiB);
}

TEST(SizedDefaultsTest, UnknownSlotsCountAsOne) {
  const SizedDefaults d = DeriveSizedDefaults(512 * kMiB, {0, 0});
  EXPECT_EQ(d.reducers, 1u);
  EXPECT_EQ(d.split_bytes, 128 * kMiB);  // 512 / (4 x 1)
}

}  // namespace
}  // namespace mr::jobs
