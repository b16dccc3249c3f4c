// A diff against a baseline as blocks of the report document (document.hpp): the lines that say
// what differs between the two runs, a summary per backend and section, every matched row worst
// first, and the rows of one report only. compare --baseline appends them to its report;
// `xreduce diff` is a document of them alone.
#pragma once

#include <string>
#include <vector>

#include "report/baseline.hpp"
#include "report/document.hpp"

namespace xr::app {

void add_baseline_blocks(const BaselineDiff& d, std::vector<Block>& body);

// `xreduce diff`'s document: a header naming the two reports and the counts, then the blocks.
Document diff_document(const BaselineDiff& d, const std::string& command);

// "this run" or the report's path.
std::string run_label(const RunIdentity& run);

// "cuda fast/decoupled-lookback inclusive scan sum i32 · cold n = 256M": a row in words.
std::string row_words(const ResultRow& row);

}  // namespace xr::app
