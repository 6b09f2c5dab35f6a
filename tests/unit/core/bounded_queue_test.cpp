#include "podcrawl/core/bounded_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace podcrawl::core {
namespace {

TEST(BoundedQueue, HandsItemsOutInOrderAndRefusesMoreThanItHolds) {
  BoundedQueue<int> queue(2);
  queue.push(1);
  int third = 3;
  queue.push(2);
  EXPECT_FALSE(queue.try_push(third)); // full
  EXPECT_EQ(third, 3);                 // left as it was
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_TRUE(queue.try_push(third));
  EXPECT_EQ(queue.pop(), 2);
  EXPECT_EQ(queue.pop(), 3);
}

TEST(BoundedQueue, AClosedQueueIsDrainedThenEnds) {
  BoundedQueue<std::string> queue(3);
  queue.push("a");
  queue.push("b");
  queue.close();
  EXPECT_EQ(queue.pop(), "a");
  EXPECT_EQ(queue.pop(), "b");
  EXPECT_EQ(queue.pop(), std::nullopt);
  EXPECT_EQ(queue.pop(), std::nullopt);
}

TEST(BoundedQueue, TheFirstErrorStopsTheWorkAndIsThrownToThoseWhoWait) {
  BoundedQueue<int> queue(1);
  queue.push(1);
  // A producer waiting on the full queue is released by the error (or meets it at once).
  std::thread producer([&] {
    try {
      queue.push(2);
      ADD_FAILURE() << "push succeeded after the error";
    } catch (const std::runtime_error& error) {
      EXPECT_STREQ(error.what(), "first");
    }
  });
  queue.fail(std::make_exception_ptr(std::runtime_error("first")));
  queue.fail(std::make_exception_ptr(std::runtime_error("second")));
  producer.join();
  EXPECT_EQ(queue.pop(), std::nullopt); // the item queued before is not handed out
  int item = 3;
  EXPECT_FALSE(queue.try_push(item));
  try {
    queue.wait_until_done();
    ADD_FAILURE() << "wait_until_done returned after the error";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "first");
  }
}

TEST(BoundedQueue, WaitUntilDoneReturnsOnceEveryItemIsReportedDone) {
  constexpr int k_items = 1000;
  BoundedQueue<int> queue(4);
  std::atomic<long> sum{0};
  std::vector<std::jthread> consumers;
  for (int i = 0; i < 3; ++i) {
    consumers.emplace_back([&] {
      while (const auto item = queue.pop()) {
        sum += *item;
        queue.done();
      }
    });
  }
  for (int i = 1; i <= k_items; ++i) {
    queue.push(i);
  }
  queue.wait_until_done();
  EXPECT_EQ(sum.load(), static_cast<long>(k_items) * (k_items + 1) / 2);
  queue.close();
}

} // namespace
} // namespace podcrawl::core
