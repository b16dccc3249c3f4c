// Which words of a parameter block the library's PTX loads whole, on the real onesweep PTX: every
// entry analysed within its block, the pass kernels' pointer fields found (the pairs' values too),
// the padding word that once held half of a stale pointer left out, and a PTX that disagrees with
// the library's layout refused with a line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "onesweep_ptx.hpp"
#include "param_loads.hpp"
#include "xreduce/error.hpp"

namespace xr::onebin::test {
namespace {

std::vector<bool> loaded_whole(const std::string& entry) {
  return words_loaded_whole(onesweep_ptx(), entry, declared_spans(onesweep_ptx(), entry));
}

bool word(const std::vector<bool>& words, std::size_t byte) {
  return words.at(byte / 8);
}

// A module of one entry taking one 16-byte parameter, whose body is `body`.
PtxModule one_entry(const std::string& body) {
  return PtxModule::parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(\n\t.param .align 8 .b8 k_param_0[16]\n)\n{\n" +
      body + "\tret;\n}\n");
}

}  // namespace

TEST_CASE("every onesweep entry is analysed within its parameter block") {
  for (const std::string& entry : onesweep_ptx().entries()) {
    INFO(entry);
    const std::vector<ParamSpan> spans = declared_spans(onesweep_ptx(), entry);
    std::size_t bytes = 0;
    for (const ParamSpan& s : spans) bytes = std::max(bytes, s.offset + s.size);
    CHECK(words_loaded_whole(onesweep_ptx(), entry, spans).size() == (bytes + 7) / 8);
  }
}

TEST_CASE("the u32 keys' pass: its pointers are loaded whole, the padding is not") {
  const std::vector<bool> w = loaded_whole(entry_named("13onesweep_passIjLi512ELi20"));
  REQUIRE(w.size() == kPassBlock / 8);
  for (std::size_t at : {kKeysIn, kKeysOut, kCount, kStatus, kCounter, kBinsIn, kBinsOut}) {
    INFO(at);
    CHECK(word(w, at));
  }
  CHECK_FALSE(word(w, kPaddingWord));
  // Keys alone: the kernel never reads the values' pointers.
  CHECK_FALSE(word(w, kValuesIn));
  CHECK_FALSE(word(w, kValuesOut));
}

TEST_CASE("the u32 pairs' pass: the values' pointers too, the padding not") {
  const std::vector<bool> w = loaded_whole(entry_named("13onesweep_passIjLi384ELi26ELi2ELi8EjE"));
  REQUIRE(w.size() == kPassBlock / 8);
  for (std::size_t at :
       {kKeysIn, kKeysOut, kValuesIn, kValuesOut, kCount, kStatus, kCounter, kBinsIn, kBinsOut}) {
    INFO(at);
    CHECK(word(w, at));
  }
  CHECK_FALSE(word(w, kPaddingWord));
}

TEST_CASE("the histograms and the bins: their pointer parameters") {
  // keys, n, codec (6 B), bits (8 B), passes, histograms, count
  const std::vector<bool> h = loaded_whole(entry_named("19onesweep_histogramsIjLi1024ELi4E"));
  REQUIRE(h.size() == 7);
  CHECK(word(h, 0));
  CHECK(word(h, 40));
  CHECK(word(h, 48));
  CHECK_FALSE(word(h, 16));  // the codec's bytes
  const std::vector<bool> b = loaded_whole(entry_named("13onesweep_binsE"));
  CHECK(b == std::vector<bool>{true, true});
}

TEST_CASE("a renamed entry loads the same words") {
  const std::string entry = entry_named("13onesweep_passIjLi384ELi26ELi2ELi8EjE");
  const PtxModule renamed = onesweep_ptx().keep({entry}).renamed(entry, "xr_replay_2");
  CHECK(words_loaded_whole(renamed, "xr_replay_2", declared_spans(onesweep_ptx(), entry)) ==
        loaded_whole(entry));
}

TEST_CASE("a PTX that disagrees with the library's layout is refused, not indexed past") {
  const std::vector<ParamSpan> spans{{0, 16}};
  SECTION("a load past the parameter") {
    const PtxModule m = one_entry("\tld.param.u64 %rd1, [k_param_0+64];\n");
    CHECK_THROWS_WITH(words_loaded_whole(m, "k", spans),
                      Catch::Contains("loads bytes 64..72 of parameter 0"));
  }
  SECTION("a vector load running past it") {
    const PtxModule m = one_entry("\tld.param.v2.u64 {%rd1, %rd2}, [k_param_0+8];\n");
    CHECK_THROWS_AS(words_loaded_whole(m, "k", spans), Error);
  }
  SECTION("a block the library's function lays out smaller") {
    const PtxModule m = one_entry("\tld.param.u64 %rd1, [k_param_0+8];\n");
    CHECK_THROWS_AS(words_loaded_whole(m, "k", {{0, 8}}), Error);
  }
  SECTION("another number of parameters") {
    const PtxModule m = one_entry("");
    CHECK_THROWS_WITH(words_loaded_whole(m, "k", {{0, 8}, {8, 8}}),
                      Catch::Contains("declares 1 parameters"));
  }
  SECTION("within it, each word once") {
    const PtxModule m = one_entry("\tld.param.v2.u64 {%rd1, %rd2}, [k_param_0];\n");
    CHECK(words_loaded_whole(m, "k", spans) == std::vector<bool>{true, true});
  }
}

}  // namespace xr::onebin::test
