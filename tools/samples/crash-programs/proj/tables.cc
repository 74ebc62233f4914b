// C++ frames as real projects have them: a template, an operator and an anonymous namespace.
#include <cstdint>
#include <string>
#include <vector>

namespace {
template <typename Key, typename Value>
struct Table {
  std::vector<Value> values;
  const Value &operator[](Key key) const { return values.data()[static_cast<size_t>(key)]; }
};

int lookup(const Table<uint8_t, uint16_t> &table, uint8_t key) {
  return table[key];
}
}  // namespace

namespace proj {
int column_width(const std::vector<uint16_t> &widths, uint8_t key) {
  Table<uint8_t, uint16_t> table{widths};
  return lookup(table, key);
}
}  // namespace proj

int main(int argc, char **) {
  std::vector<uint16_t> widths{4, 8, 15, 16};
  return proj::column_width(widths, static_cast<uint8_t>(argc + 3));
}
