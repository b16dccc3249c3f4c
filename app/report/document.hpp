// compare's human-readable report as one document built once from the report and its analysis:
// a header of facts about the run, then headings, tables and lines in report order. The text and
// markdown renderers only walk it, each in its own format.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.hpp"
#include "report/analysis.hpp"

namespace xr::app {

// What a sort row's GB/s and % peak count, said once in a report's header.
inline constexpr std::string_view kSortBytesNote =
    "a sort's GB/s counts the radix sort's bytes (the keys read once, then read and written per "
    "8-bit digit, values read and written per digit: 36 bytes a u32 key, 68 with a u32 value, 100 "
    "with a u64); its "
    "% peak is against the copy peak; GKeys/s is keys over the median time";

struct DocumentHeader {
  std::string title = "xreduce compare";
  std::string command;  // the command line that made the report
  std::string config;   // timing, cache, statistics, seed and data, in one sentence
  std::vector<std::pair<std::string, std::string>> device_lines;  // backend, its facts in words
  Table devices;                                                  // the same facts as a table
  struct SameGpu {
    std::string text;
    bool same = false;  // false: a warning that the GPU APIs measured different GPUs
  };
  std::optional<SameGpu> same_gpu;   // when two or more GPU APIs are in the report
  std::vector<std::string> skipped;  // "backend why" of each backend left out
  std::vector<std::string> notes;    // what merging other reports noticed
  bool has_scan = false;             // a scan's GB/s and % peak need a word of explanation
  bool has_sort = false;             // so do a sort's (kSortBytesNote)
};

// One element of the body, in report order.
struct Block {
  enum class Kind {
    heading,  // a table's title
    table,
    note,  // a remark on the table above (a transfer size clamped or left out)
    line,  // a summary sentence (a crossover, results above the peak)
  };
  Kind kind = Kind::line;
  std::string text;  // empty for a table
  Table table;       // empty unless kind == table
};

struct Document {
  DocumentHeader header;
  std::vector<Block> body;
};

// Appends a heading and its table; a block of text.
void add_table(std::vector<Block>& body, std::string heading, Table table);
void add_text(std::vector<Block>& body, Block::Kind kind, std::string text);

// Everything the text and markdown reports show, in their order. Deterministic.
Document build_document(const AnalyzedReport& ar);

}  // namespace xr::app
