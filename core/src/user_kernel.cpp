#include "xreduce/user_kernel.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "xreduce/catalog.hpp"
#include "xreduce/error.hpp"

namespace xr {
namespace {

constexpr std::string_view kMarker = "xreduce:";
// A source file past this size is not a kernel someone wrote by hand (and is not read whole).
constexpr std::uintmax_t kMaxKernelFileBytes = std::uintmax_t{64} << 20;

[[noreturn]] void bad(const std::string& message) {
  throw Error(ErrorCategory::usage, message);
}

struct Extension {
  std::string_view suffix;
  KernelLanguage language;
};
constexpr Extension kExtensions[] = {
    {".cu", KernelLanguage::cuda},     {".ptx", KernelLanguage::ptx},
    {".cubin", KernelLanguage::cubin}, {".comp", KernelLanguage::glsl},
    {".glsl", KernelLanguage::glsl},   {".hlsl", KernelLanguage::hlsl},
    {".spv", KernelLanguage::spirv},   {".cl", KernelLanguage::opencl},
};

KernelLanguage language_of(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  for (const auto& e : kExtensions)
    if (ext == e.suffix) return e.language;
  bad("--kernel " + path.string() + ": unknown extension '" + ext +
      "' (.cu, .ptx, .cubin: CUDA; .comp, .glsl, .hlsl, .spv: Vulkan; .cl: OpenCL)");
}

std::string read_contents(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    bad("--kernel " + path.string() + ": no such file");
  if (std::filesystem::file_size(path, ec) > kMaxKernelFileBytes)
    bad("--kernel " + path.string() + ": larger than 64 MiB, not a kernel");
  std::ifstream in(path, std::ios::binary);
  if (!in) bad("--kernel " + path.string() + ": cannot read the file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) bad("--kernel " + path.string() + ": cannot read the file");
  return text;
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text) {
    if (c == sep) {
      if (!item.empty()) out.push_back(std::move(item));
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(std::move(item));
  return out;
}

template <class T, class Parse>
std::vector<T> parse_list(const std::string& where, std::string_view key, std::string_view value,
                          Parse parse) {
  std::vector<T> out;
  for (const std::string& word : split(value, ',')) {
    const auto v = parse(word);
    if (!v)
      bad(where + ": " + std::string(key) + "=" + std::string(value) + ": unknown '" + word + "'");
    if (std::find(out.begin(), out.end(), *v) == out.end()) out.push_back(*v);
  }
  if (out.empty()) bad(where + ": " + std::string(key) + "= needs at least one value");
  return out;
}

std::uint64_t parse_count(const std::string& where, std::string_view key, std::string_view value,
                          std::uint64_t largest, std::uint64_t smallest = 0) {
  std::uint64_t v = 0;
  bool digits = !value.empty() && value.size() <= 12;
  for (char c : value) digits = digits && c >= '0' && c <= '9';
  if (digits) v = std::stoull(std::string(value));
  if (!digits || v > largest || v < smallest)
    bad(where + ": " + std::string(key) + "=" + std::string(value) + " is not a count from " +
        std::to_string(smallest) + " to " + std::to_string(largest));
  return v;
}

KernelPass parse_pass(const std::string& where, std::string_view value) {
  const auto colon = value.find(':');
  const std::string entry(value.substr(0, colon));
  const std::string_view grid = colon == std::string_view::npos ? "tiles" : value.substr(colon + 1);
  if (entry.empty()) bad(where + ": pass=" + std::string(value) + " names no entry point");
  if (grid == "tiles") return {entry, KernelGrid::tiles};
  if (grid == "one") return {entry, KernelGrid::one};
  bad(where + ": pass=" + std::string(value) + ": the grid is 'tiles' or 'one'");
}

// Where a declaration that only a scan takes was made, so a reduce that makes it is refused once
// every declaration (primitive= among them) is read.
struct ScanOnly {
  std::string where;
  std::string word;
};

// One declaration word: key=value or a flag.
void apply(UserKernel& k, ScanOnly& scan_only, const std::string& where, const std::string& word) {
  const auto eq = word.find('=');
  const std::string key = word.substr(0, eq);
  const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
  if (eq == std::string::npos) {
    if (key == "writes-input") return void(k.writes_input = true);
    if (key == "nondeterministic") return void(k.deterministic = false);
  } else if (key == "primitive") {
    // A sort is built in only: its passes and scratch have no declarations here.
    const auto p = parse_primitive(value);
    if (!p || *p == Primitive::sort)
      bad(where + ": primitive=" + value +
          ": a user's kernel declares primitive=reduce or primitive=scan (sorts are built in "
          "only)");
    return void(k.primitive = *p);
  } else if (key == "block") {
    return void(k.block = static_cast<std::uint32_t>(parse_count(where, key, value, 1024, 1)));
  } else if (key == "items") {
    return void(k.items = static_cast<std::uint32_t>(parse_count(where, key, value, 1 << 16, 1)));
  } else if (key == "grid") {
    return void(k.max_groups = parse_count(where, key, value, 0x7fffffff, 1));
  } else if (key == "dtypes") {
    return void(k.dtypes = parse_list<DType>(where, key, value, parse_dtype));
  } else if (key == "ops") {
    return void(k.ops = parse_list<Op>(where, key, value, parse_op));
  } else if (key == "kinds") {
    scan_only = {where, word};
    return void(k.kinds = parse_list<ScanKind>(where, key, value, parse_scan_kind));
  } else if (key == "entry") {
    return void(k.passes = {{value, KernelGrid::tiles}});
  } else if (key == "pass") {
    if (k.passes.size() == 1 && k.passes[0].entry.empty()) k.passes.clear();
    return void(k.passes.push_back(parse_pass(where, value)));
  } else if (key == "scratch-per-tile") {
    return void(k.scratch_per_tile = parse_count(where, key, value, 1 << 20));
  } else if (key == "scratch-bytes") {
    return void(k.scratch_bytes = parse_count(where, key, value, std::uint64_t{1} << 30));
  } else if (key == "id") {
    return void(k.id = value);
  }
  bad(where + ": unknown declaration '" + word +
      "' (primitive=, block=, items=, grid=, dtypes=, ops=, kinds=, entry=, pass=, "
      "scratch-per-tile=, scratch-bytes=, id=, writes-input, nondeterministic)");
}

void apply_words(UserKernel& k, ScanOnly& scan_only, const std::string& where,
                 std::string_view words) {
  std::istringstream in{std::string(words)};
  for (std::string word; in >> word;) apply(k, scan_only, where, word);
}

// The `xreduce:` lines of a text file, after `//`.
void apply_file_declarations(UserKernel& k, ScanOnly& scan_only) {
  std::istringstream in(k.contents);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const auto slashes = line.find("//");
    if (slashes == std::string::npos) continue;
    const auto marker = line.find(kMarker, slashes);
    if (marker == std::string::npos || line.find_first_not_of(" \t", slashes + 2) != marker)
      continue;
    apply_words(k, scan_only, k.path.string() + ":" + std::to_string(line_number),
                std::string_view(line).substr(marker + kMarker.size()));
  }
}

std::string default_entry(const UserKernel& k) {
  switch (k.language) {
    case KernelLanguage::cuda:
    case KernelLanguage::ptx:
    case KernelLanguage::cubin:
    case KernelLanguage::opencl:
      return k.primitive == Primitive::reduce ? "xr_reduce" : "xr_scan";
    default:
      return "main";
  }
}

void check_declarations(UserKernel& k) {
  const std::string where = "--kernel " + k.path.string();
  if (k.passes.empty() || (k.passes.size() == 1 && k.passes[0].entry.empty()))
    k.passes = {{default_entry(k), KernelGrid::tiles}};
  if (k.primitive == Primitive::reduce && k.passes.size() != 1)
    bad(where + ": a reduce kernel has one entry point (entry=), not " +
        std::to_string(k.passes.size()) + " passes");
  if (k.primitive == Primitive::reduce && k.passes[0].grid != KernelGrid::tiles)
    bad(where + ": a reduce kernel's pass runs one block per tile");
  for (DType t : k.dtypes)
    if (t == DType::u8 || t == DType::u16)
      bad(where + ": dtypes=" + std::string(to_string(t)) + ": a " +
          std::string(to_string(k.primitive)) + " kernel takes no 8- or 16-bit integers");
  if (k.block != 0 && (k.block & (k.block - 1)) != 0)
    bad(where + ": block=" + std::to_string(k.block) + " is not a power of two");
  if (k.language == KernelLanguage::cuda || k.language == KernelLanguage::ptx ||
      k.language == KernelLanguage::cubin || k.language == KernelLanguage::opencl) {
    if (k.block == 0) k.block = 256;
  }
  if (!is_source(k.language) && (k.dtypes.size() != 1 || k.ops.size() != 1 ||
                                 (k.primitive == Primitive::scan && k.kinds.size() != 1)))
    bad(where +
        ": a prebuilt module serves one dtype, one op (and one scan kind); declare them with "
        "--kernel-spec 'dtypes=... ops=...'");
  if (!is_source(k.language) && k.primitive == Primitive::reduce &&
      accumulator_of(k.dtypes.front()) != k.dtypes.front())
    bad(where + ": a reduce's passes after the first read its " +
        std::string(to_string(accumulator_of(k.dtypes.front()))) +
        " partials, which one prebuilt " + std::string(to_string(k.dtypes.front())) +
        " module cannot: give its source");
  if (k.id.empty()) k.id = k.path.stem().string();
  if (k.id.rfind("user/", 0) != 0) k.id = "user/" + k.id;
  for (char c : k.id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' ||
          c == '.'))
      bad(where + ": the id '" + k.id + "' may hold letters, digits and / - _ . only");
}

// A character's spelling in a declaration is checked above; here the words of the type names.
struct TypeNames {
  std::string_view glsl, hlsl, cuda, opencl;
};
TypeNames type_names(DType t) {
  switch (t) {
    case DType::i32:
      return {"int", "int", "int", "int"};
    case DType::u32:
      return {"uint", "uint", "unsigned int", "uint"};
    case DType::f32:
      return {"float", "float", "float", "float"};
    case DType::i64:
      return {"int64_t", "int64_t", "long long", "long"};
    case DType::u64:
      return {"uint64_t", "uint64_t", "unsigned long long", "ulong"};
    case DType::f64:
      return {"double", "double", "double", "double"};
    case DType::f16:
      return {"float16_t", "float16_t", "__half", "half"};
    case DType::bf16:
      return {"", "", "__nv_bfloat16", ""};
    case DType::u8:
    case DType::u16:
      return {};  // a histogram's samples: no user's kernel takes them
  }
  return {};
}

std::string type_name(KernelLanguage language, DType t) {
  const TypeNames names = type_names(t);
  switch (language) {
    case KernelLanguage::glsl:
      return std::string(names.glsl);
    case KernelLanguage::hlsl:
      return std::string(names.hlsl);
    case KernelLanguage::opencl:
      return std::string(names.opencl);
    default:
      return std::string(names.cuda);
  }
}

// The op's identity as an XR_ACC expression, spelled for the language. Floats' infinities come
// from their bits: no language here has a portable infinity literal.
std::string identity_expression(KernelLanguage language, DType acc, Op op) {
  const bool glsl = language == KernelLanguage::glsl, hlsl = language == KernelLanguage::hlsl;
  const bool cl = language == KernelLanguage::opencl;
  const bool cuda = !glsl && !hlsl && !cl;
  if (op == Op::sum) return glsl ? "XR_ACC(0)" : "((XR_ACC)0)";
  const bool lowest = op == Op::max;
  switch (acc) {
    case DType::i32:
      return lowest ? "(-2147483647 - 1)" : "2147483647";
    case DType::u32:
      return lowest ? "0u" : "4294967295u";
    case DType::i64:
      if (glsl) return lowest ? "(-9223372036854775807l - 1l)" : "9223372036854775807l";
      if (hlsl)
        return lowest ? "((int64_t)0x8000000000000000ull)" : "((int64_t)0x7fffffffffffffffull)";
      if (cl) return lowest ? "(-9223372036854775807L - 1L)" : "9223372036854775807L";
      return lowest ? "(-9223372036854775807LL - 1LL)" : "9223372036854775807LL";
    case DType::u64:
      if (glsl) return lowest ? "0ul" : "18446744073709551615ul";
      if (cl) return lowest ? "0UL" : "18446744073709551615UL";
      return lowest ? "0ull" : "18446744073709551615ull";
    case DType::f64: {
      const std::string high = lowest ? "0xfff00000u" : "0x7ff00000u";
      if (glsl) return "packDouble2x32(uvec2(0u, " + high + "))";
      if (hlsl) return "asdouble(0u, " + high + ")";
      if (cl) return lowest ? "as_double(0xfff0000000000000UL)" : "as_double(0x7ff0000000000000UL)";
      return lowest ? "__longlong_as_double(0xfff0000000000000ULL)"
                    : "__longlong_as_double(0x7ff0000000000000ULL)";
    }
    default: {  // f32, and the float accumulator of f16 and bf16
      const std::string bits = lowest ? "0xff800000u" : "0x7f800000u";
      if (glsl) return "uintBitsToFloat(" + bits + ")";
      if (hlsl) return "asfloat(" + bits + ")";
      if (cl) return "as_float(" + bits + ")";
      (void)cuda;
      return "__uint_as_float(" + bits + ")";
    }
  }
}

// The operator + on accumulators. OpenCL C leaves signed overflow undefined, as C does: its signed
// sums wrap through unsigned arithmetic and as_type's reinterpretation (defined for any bits), as
// every other language's two's-complement sums do.
std::string sum_expression(KernelLanguage language, DType acc) {
  if (language == KernelLanguage::opencl && acc == DType::i32)
    return "as_int((uint)(a) + (uint)(b))";
  if (language == KernelLanguage::opencl && acc == DType::i64)
    return "as_long((ulong)(a) + (ulong)(b))";
  return "((a) + (b))";
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string_view to_string(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::cuda:
      return "CUDA C++";
    case KernelLanguage::ptx:
      return "PTX";
    case KernelLanguage::cubin:
      return "cubin";
    case KernelLanguage::glsl:
      return "GLSL";
    case KernelLanguage::hlsl:
      return "HLSL";
    case KernelLanguage::spirv:
      return "SPIR-V";
    case KernelLanguage::opencl:
      return "OpenCL C";
  }
  return "?";
}

std::string_view backend_of(KernelLanguage language) {
  switch (language) {
    case KernelLanguage::cuda:
    case KernelLanguage::ptx:
    case KernelLanguage::cubin:
      return "cuda";
    case KernelLanguage::opencl:
      return "opencl";
    default:
      return "vulkan";
  }
}

std::vector<std::string_view> backends_taking(KernelLanguage language) {
  if (language == KernelLanguage::ptx) return {"cuda", "opencl", "vulkan"};
  return {backend_of(language)};
}

bool runs_on(KernelLanguage language, std::string_view backend) {
  const auto all = backends_taking(language);
  return std::find(all.begin(), all.end(), backend) != all.end();
}

bool is_source(KernelLanguage language) {
  return language == KernelLanguage::cuda || language == KernelLanguage::glsl ||
         language == KernelLanguage::hlsl || language == KernelLanguage::opencl;
}

VariantInfo UserKernel::info() const {
  VariantInfo v;
  v.primitive = primitive;
  v.id = id;
  v.mirrors =
      "user kernel " + path.filename().string() + " (" + std::string(to_string(language)) + ")";
  v.dtypes = dtypes;
  v.ops = ops;
  if (primitive == Primitive::scan) v.scan_kinds = kinds;
  v.writes_input = writes_input;
  v.deterministic = deterministic;
  // n and the tile count are 32-bit in the ABI (docs/kernels.md).
  v.max_elements = UINT32_MAX - kKernelSlackBytes;
  return v;
}

UserKernel load_user_kernel(const std::filesystem::path& path, std::string_view spec,
                            std::string_view id) {
  UserKernel k;
  k.path = path;
  k.language = language_of(path);
  k.contents = read_contents(path);
  ScanOnly scan_only;
  if (k.language != KernelLanguage::cubin && k.language != KernelLanguage::spirv)
    apply_file_declarations(k, scan_only);
  if (!spec.empty()) apply_words(k, scan_only, "--kernel-spec", spec);
  if (!scan_only.where.empty() && k.primitive == Primitive::reduce)
    bad(scan_only.where + ": " + scan_only.word +
        " declares a scan's kinds; this kernel is a reduce (declare primitive=scan)");
  if (!id.empty()) k.id = std::string(id);
  check_declarations(k);
  return k;
}

void UserKernels::add(const UserKernel& kernel, std::string_view backend, bool built_in) {
  if (built_in || find(kernel.primitive, kernel.id))
    bad("the " + std::string(backend) + " backend already has a " +
        std::string(to_string(kernel.primitive)) + " variant '" + kernel.id + "'");
  kernels_.push_back(kernel);
}

const UserKernel* UserKernels::find(Primitive primitive, std::string_view id) const {
  for (const UserKernel& k : kernels_)
    if (k.primitive == primitive && k.id == id) return &k;
  return nullptr;
}

std::vector<VariantInfo> UserKernels::variants() const {
  std::vector<VariantInfo> out;
  for (const UserKernel& k : kernels_) out.push_back(k.info());
  return out;
}

void check_kernel_ids(const std::vector<UserKernel>& kernels) {
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const UserKernel& k = kernels[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (kernels[j].id != k.id || kernels[j].primitive != k.primitive) continue;
      for (std::string_view backend : backends_taking(k.language))
        if (runs_on(kernels[j].language, backend))
          bad("--kernel " + k.path.string() + " and " + kernels[j].path.string() +
              " are both the " + std::string(backend) + " variant " + k.id +
              ": give one another id (--kernel-id or id=)");
    }
  }
}

KernelMacros kernel_macros(KernelLanguage language, DType data, DType dtype, Op op, ScanKind kind,
                           std::uint32_t block, std::uint32_t items, std::size_t pass) {
  const DType acc = accumulator_of(dtype);
  if (type_name(language, data).empty())
    throw Error(ErrorCategory::unsupported, std::string(to_string(language)) +
                                                " kernels have no type for " +
                                                std::string(to_string(data)));
  const bool glsl = language == KernelLanguage::glsl;
  KernelMacros m = {
      {"XR_T", type_name(language, data)},
      {"XR_ACC", type_name(language, acc)},
      {"XR_OP(a,b)", op == Op::sum   ? sum_expression(language, acc)
                     : op == Op::min ? "((b) < (a) ? (b) : (a))"
                                     : "((a) < (b) ? (b) : (a))"},
      {"XR_IDENTITY", identity_expression(language, acc, op)},
      {"XR_TO_ACC(x)", glsl ? "XR_ACC(x)" : "((XR_ACC)(x))"},
      {"XR_FROM_ACC(x)", glsl ? "XR_T(x)" : "((XR_T)(x))"},
      {"XR_BLOCK", std::to_string(block) + "u"},
      {"XR_ITEMS", std::to_string(items) + "u"},
      {"XR_TILE", std::to_string(std::uint64_t{block} * items) + "u"},
      {"XR_EXCLUSIVE", kind == ScanKind::exclusive ? "1" : "0"},
      {"XR_PASS", std::to_string(pass)},
      {"XR_DTYPE_" + upper(to_string(dtype)), "1"},
      {"XR_OP_" + upper(to_string(op)), "1"},
  };
  return m;
}

std::string kernel_prelude(KernelLanguage language, const KernelMacros& macros) {
  auto defines = [&](std::string_view name) {
    return std::any_of(macros.begin(), macros.end(),
                       [&](const auto& m) { return m.first == name; });
  };
  std::string text;
  if (language == KernelLanguage::glsl) {
    text =
        "#extension GL_EXT_shader_explicit_arithmetic_types : require\n"
        "#extension GL_EXT_shader_16bit_storage : require\n";
  } else if (backend_of(language) == "cuda") {
    if (defines("XR_DTYPE_F16")) text += "#include <cuda_fp16.h>\n";
    if (defines("XR_DTYPE_BF16")) text += "#include <cuda_bf16.h>\n";
  } else if (language == KernelLanguage::opencl) {
    // Only where the type needs it: a device without the extension builds the other types.
    if (defines("XR_DTYPE_F64")) text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    if (defines("XR_DTYPE_F16")) text += "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  }
  for (const auto& [name, value] : macros) text += "#define " + name + " " + value + "\n";
  return text;
}

std::uint64_t kernel_groups(KernelGrid grid, std::uint64_t n, std::uint64_t tile,
                            std::uint64_t max_groups) {
  if (grid == KernelGrid::one) return 1;
  const std::uint64_t tiles = std::max<std::uint64_t>(1, (n + tile - 1) / tile);
  return max_groups ? std::min(tiles, max_groups) : tiles;
}

std::uint64_t kernel_padded(std::uint64_t n, std::uint64_t tile, DType t, std::string_view id) {
  const std::uint64_t padded = kernel_groups(KernelGrid::tiles, n, tile) * tile;
  if ((padded - n) * size_of(t) > kKernelSlackBytes)
    throw Error(ErrorCategory::unsupported,
                std::string(id) + ": a tile of " + std::to_string(tile) + " " +
                    std::string(to_string(t)) + " elements is more than the " +
                    std::to_string(kKernelSlackBytes >> 10) +
                    " KiB xreduce pads an array with (docs/kernels.md)");
  return padded;
}

std::uint64_t UserKernel::groups(KernelGrid grid, std::uint64_t n, std::uint64_t tile) const {
  return kernel_groups(grid, n, tile, max_groups);
}

std::vector<std::uint64_t> kernel_reduce_levels(std::uint64_t n, std::uint64_t tile,
                                                std::uint64_t max_groups) {
  // A tile of one element leaves as many partials as it read: the recursion would not end.
  if (tile < 2)
    throw Error(ErrorCategory::usage,
                "a reduce kernel's tile (block x items) must hold at least 2 elements, not " +
                    std::to_string(tile));
  std::vector<std::uint64_t> counts{n};
  while (counts.back() > 1 || counts.size() == 1)
    counts.push_back(kernel_groups(KernelGrid::tiles, counts.back(), tile, max_groups));
  return counts;
}

std::uint64_t kernel_scratch_bytes(const UserKernel& kernel, std::uint64_t n, std::uint64_t tile) {
  const std::uint64_t blocks = kernel.groups(KernelGrid::tiles, n, tile);
  return std::max(kKernelMinScratchBytes, kernel.scratch_per_tile * blocks + kernel.scratch_bytes);
}

std::vector<std::byte> identity_bytes(DType t, Op op, std::size_t count) {
  const Value identity = Value::identity_of(t, op);
  std::vector<std::byte> out(count * size_of(t));
  visit_element_dtype(t, [&](auto tag) {
    const auto v = identity.get<typename decltype(tag)::type>();
    for (std::size_t i = 0; i < count; ++i) std::memcpy(out.data() + i * sizeof v, &v, sizeof v);
  });
  return out;
}

}  // namespace xr
