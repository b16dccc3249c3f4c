#include "spirv_interface.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>

namespace xr::shaders {
namespace {

// The few opcodes and enumerants read here (SPIR-V 1.6 unified specification).
constexpr std::uint32_t kMagic = 0x07230203, kSwappedMagic = 0x03022307;
enum Opcode : std::uint32_t {
  OpName = 5,
  OpMemberName = 6,
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeImage = 25,
  OpTypeSampler = 26,
  OpTypeSampledImage = 27,
  OpTypeMatrix = 24,
  OpTypeArray = 28,
  OpTypeRuntimeArray = 29,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpTypeAccelerationStructureKHR = 5341,
  OpConstant = 43,
  OpConstantComposite = 44,
  OpSpecConstant = 50,
  OpSpecConstantComposite = 51,
  OpSpecConstantOp = 52,
  OpVariable = 59,
  OpDecorate = 71,
  OpMemberDecorate = 72,
  OpExecutionModeId = 331,
};
enum : std::uint32_t {
  ModeLocalSize = 17,
  ModeLocalSizeId = 38,
  ModelGLCompute = 5,
  DecorationSpecId = 1,
  DecorationBlock = 2,
  DecorationBufferBlock = 3,
  DecorationArrayStride = 6,
  DecorationBuiltIn = 11,
  DecorationNonWritable = 24,
  DecorationBinding = 33,
  DecorationDescriptorSet = 34,
  DecorationOffset = 35,
  BuiltInWorkgroupSize = 25,
  StorageUniformConstant = 0,
  StorageUniform = 2,
  StorageWorkgroup = 4,
  StoragePushConstant = 9,
  StorageStorageBuffer = 12,
};

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(what);
}

std::string literal_string(std::span<const std::uint32_t> operands) {
  std::string s(reinterpret_cast<const char*>(operands.data()), operands.size() * 4);
  return s.substr(0, s.find('\0'));
}

// Everything collected in one walk over the instructions; resolved afterwards.
struct Walk {
  struct Entry {
    EntryPoint point;
    std::uint32_t id = 0;
  };
  std::vector<Entry> entries;
  std::map<std::uint32_t, std::array<std::uint32_t, 3>> size_ids;  // LocalSizeId, by entry id
  std::map<std::uint32_t, std::string> names;
  std::map<std::uint32_t, std::map<std::uint32_t, std::string>> member_names;   // type: index
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>> decorations;  // id: dec -> val
  std::map<std::uint32_t, std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>>> members;
  std::map<std::uint32_t, std::vector<std::uint32_t>> types;     // id -> opcode, operands...
  std::map<std::uint32_t, std::uint64_t> constants;              // (spec) constant id -> value
  std::map<std::uint32_t, std::vector<std::uint32_t>> spec_ops;  // id -> opcode, operands...
  std::map<std::uint32_t, std::vector<std::uint32_t>> composites;
  struct Variable {
    std::uint32_t id, type, storage;
  };
  std::vector<Variable> variables;
};

void record(Walk& w, std::uint32_t op, std::span<const std::uint32_t> o) {
  auto need = [&](std::size_t k) {
    if (o.size() < k) fail("a SPIR-V instruction (opcode " + std::to_string(op) + ") is too short");
  };
  switch (op) {
    case OpName:
      need(1);
      w.names[o[0]] = literal_string(o.subspan(1));
      break;
    case OpMemberName:
      need(2);
      w.member_names[o[0]][o[1]] = literal_string(o.subspan(2));
      break;
    case OpEntryPoint:
      need(3);
      w.entries.push_back({{literal_string(o.subspan(2)), o[0], o[0] == ModelGLCompute, {}}, o[1]});
      break;
    case OpExecutionMode:
    case OpExecutionModeId:
      need(2);
      for (auto& e : w.entries)
        if (e.id == o[0] && o.size() >= 5 &&
            o[1] == (op == OpExecutionMode ? ModeLocalSize : ModeLocalSizeId)) {
          if (op == OpExecutionMode)
            for (int d = 0; d < 3; ++d) e.point.local_size[d].value = o[2 + d];
          else
            w.size_ids[o[0]] = {o[2], o[3], o[4]};
        }
      break;
    case OpDecorate:
      need(2);
      w.decorations[o[0]][o[1]] = o.size() > 2 ? o[2] : 1;
      break;
    case OpMemberDecorate:
      need(3);
      w.members[o[0]][o[1]][o[2]] = o.size() > 3 ? o[3] : 1;
      break;
    case OpTypeBool:
    case OpTypeInt:
    case OpTypeFloat:
    case OpTypeVector:
    case OpTypeMatrix:
    case OpTypeArray:
    case OpTypeRuntimeArray:
    case OpTypeStruct:
    case OpTypePointer:
    case OpTypeImage:
    case OpTypeSampler:
    case OpTypeSampledImage:
    case OpTypeAccelerationStructureKHR:
      need(1);
      w.types[o[0]].assign({op});
      w.types[o[0]].insert(w.types[o[0]].end(), o.begin() + 1, o.end());
      break;
    case OpConstant:
    case OpSpecConstant:
      need(3);
      w.constants[o[1]] = o.size() > 3 ? o[2] | std::uint64_t{o[3]} << 32 : o[2];
      break;
    case OpSpecConstantOp:
      need(3);
      w.spec_ops[o[1]].assign(o.begin() + 2, o.end());
      break;
    case OpConstantComposite:
    case OpSpecConstantComposite:
      need(2);
      w.composites[o[1]].assign(o.begin() + 2, o.end());
      break;
    case OpVariable:
      need(3);
      w.variables.push_back({o[1], o[0], o[2]});
      break;
    default:
      break;
  }
}

Walk walk(std::span<const std::uint32_t> words) {
  if (words.size() < 5) fail("not a SPIR-V module: shorter than its 5-word header");
  if (words[0] == kSwappedMagic) fail("a SPIR-V module of the other byte order: not supported");
  if (words[0] != kMagic) fail("not a SPIR-V module: no SPIR-V magic number");
  Walk w;
  for (std::size_t at = 5; at < words.size();) {
    const std::uint32_t count = words[at] >> 16, op = words[at] & 0xffff;
    if (count == 0) fail("a SPIR-V instruction of 0 words at word " + std::to_string(at));
    if (at + count > words.size())
      fail("a SPIR-V instruction runs past the end of the module at word " + std::to_string(at));
    record(w, op, words.subspan(at + 1, count - 1));
    at += count;
  }
  return w;
}

std::optional<std::uint32_t> decoration(const Walk& w, std::uint32_t id, std::uint32_t dec) {
  auto it = w.decorations.find(id);
  if (it == w.decorations.end()) return std::nullopt;
  auto d = it->second.find(dec);
  return d == it->second.end() ? std::nullopt : std::optional(d->second);
}

LocalDim dim_of(const Walk& w, std::uint32_t constant) {
  LocalDim d;
  if (auto v = w.constants.find(constant); v != w.constants.end())
    d.value = static_cast<std::uint32_t>(v->second);
  d.spec_id = decoration(w, constant, DecorationSpecId);
  return d;
}

// LocalSizeId's constants, or a WorkgroupSize built-in composite, which overrides both.
void resolve_local_sizes(Walk& w) {
  for (auto& e : w.entries)
    if (auto ids = w.size_ids.find(e.id); ids != w.size_ids.end())
      for (int d = 0; d < 3; ++d) e.point.local_size[d] = dim_of(w, ids->second[d]);
  for (const auto& [id, parts] : w.composites)
    if (decoration(w, id, DecorationBuiltIn) == BuiltInWorkgroupSize && parts.size() == 3)
      for (auto& e : w.entries)
        for (int d = 0; d < 3; ++d) e.point.local_size[d] = dim_of(w, parts[d]);
}

// Bytes of a type as laid out in a block (scalars, vectors, matrices, arrays with their stride,
// structs by their members' offsets, pointers as 64-bit addresses).
std::uint32_t type_bytes(const Walk& w, std::uint32_t id, int depth = 0) {
  auto it = w.types.find(id);
  if (it == w.types.end() || depth > 16) return 0;
  const auto& t = it->second;
  switch (t[0]) {
    case OpTypeInt:
    case OpTypeFloat:
      return t.size() > 1 ? t[1] / 8 : 4;
    case OpTypeVector:
    case OpTypeMatrix:
      return t.size() > 2 ? t[2] * type_bytes(w, t[1], depth + 1) : 0;
    case OpTypeArray: {
      const std::uint32_t stride = decoration(w, id, DecorationArrayStride).value_or(0);
      auto length = w.constants.find(t.size() > 2 ? t[2] : 0);
      return length == w.constants.end() ? 0 : static_cast<std::uint32_t>(stride * length->second);
    }
    case OpTypePointer:
      return 8;
    case OpTypeStruct: {
      std::uint32_t extent = 0;
      for (std::uint32_t m = 0; m + 1 < t.size(); ++m) {
        std::uint32_t offset = 0;
        if (auto s = w.members.find(id); s != w.members.end())
          if (auto mm = s->second.find(m); mm != s->second.end())
            if (auto off = mm->second.find(DecorationOffset); off != mm->second.end())
              offset = off->second;
        extent = std::max(extent, offset + type_bytes(w, t[m + 1], depth + 1));
      }
      return extent;
    }
    default:
      return 0;
  }
}

// The struct a variable's pointer type points at (through one array for arrays of blocks).
std::uint32_t pointee(const Walk& w, std::uint32_t pointer_type) {
  auto p = w.types.find(pointer_type);
  if (p == w.types.end() || p->second[0] != OpTypePointer || p->second.size() < 3) return 0;
  std::uint32_t t = p->second[2];
  auto a = w.types.find(t);
  if (a != w.types.end() && (a->second[0] == OpTypeArray || a->second[0] == OpTypeRuntimeArray))
    t = a->second[1];
  return t;
}

bool all_members_nonwritable(const Walk& w, std::uint32_t block) {
  auto t = w.types.find(block);
  if (t == w.types.end() || t->second[0] != OpTypeStruct || t->second.size() < 2) return false;
  auto s = w.members.find(block);
  if (s == w.members.end()) return false;
  for (std::uint32_t m = 0; m + 1 < t->second.size(); ++m) {
    auto mm = s->second.find(m);
    if (mm == s->second.end() || !mm->second.count(DecorationNonWritable)) return false;
  }
  return true;
}

// What a UniformConstant variable of type `t` is: an image by its Dim and Sampled operands, a
// sampler, a combined image sampler, an acceleration structure.
ResourceKind opaque_kind(const Walk& w, std::uint32_t t) {
  enum : std::uint32_t { DimBuffer = 5, SampledStorage = 2 };
  auto type = w.types.find(t);
  if (type == w.types.end()) return ResourceKind::other;
  const auto& d = type->second;
  switch (d[0]) {
    case OpTypeImage: {
      // d: OpTypeImage, sampled type, Dim, Depth, Arrayed, MS, Sampled, format.
      const bool buffer = d.size() > 2 && d[2] == DimBuffer;
      const bool storage = d.size() > 6 && d[6] == SampledStorage;
      if (buffer)
        return storage ? ResourceKind::storage_texel_buffer : ResourceKind::uniform_texel_buffer;
      return storage ? ResourceKind::storage_image : ResourceKind::sampled_image;
    }
    case OpTypeSampler:
      return ResourceKind::sampler;
    case OpTypeSampledImage:
      return ResourceKind::combined_image_sampler;
    case OpTypeAccelerationStructureKHR:
      return ResourceKind::acceleration_structure;
    default:
      return ResourceKind::other;
  }
}

Resource resource_of(const Walk& w, const Walk::Variable& v) {
  Resource r;
  const std::uint32_t block = pointee(w, v.type);
  if (v.storage == StorageStorageBuffer ||
      (v.storage == StorageUniform && decoration(w, block, DecorationBufferBlock)))
    r.kind = ResourceKind::storage_buffer;
  else if (v.storage == StorageUniform)
    r.kind = ResourceKind::uniform_buffer;
  else
    r.kind = opaque_kind(w, block);
  if (auto b = w.names.find(block); b != w.names.end()) r.block = b->second;
  if (auto m = w.member_names.find(block); m != w.member_names.end())
    for (const auto& [index, name] : m->second) r.members.push_back(name);
  if (auto n = w.names.find(v.id); n != w.names.end() && !n->second.empty())
    r.name = n->second;
  else
    r.name = r.block;
  r.set = decoration(w, v.id, DecorationDescriptorSet).value_or(0);
  const auto binding = decoration(w, v.id, DecorationBinding);
  r.has_binding = binding.has_value();
  r.binding = binding.value_or(0);
  r.writable = !decoration(w, v.id, DecorationNonWritable) && !all_members_nonwritable(w, block);
  return r;
}

// ---- workgroup memory ----------------------------------------------------------------------

// (Spec) constants with the pipeline's specialization applied, and the integer OpSpecConstantOp
// expressions array lengths are written with (gl_WorkGroupSize.x, XR_BLOCK * 2, ...).
class Evaluator {
 public:
  Evaluator(const Walk& w, const std::map<std::uint32_t, std::uint32_t>& specialization)
      : w_(w), spec_(specialization) {}

  std::optional<std::uint64_t> value(std::uint32_t id, int depth = 0) const {
    if (depth > 32) return std::nullopt;
    if (auto c = w_.constants.find(id); c != w_.constants.end()) {
      if (auto spec_id = decoration(w_, id, DecorationSpecId))
        if (auto s = spec_.find(*spec_id); s != spec_.end()) return s->second;
      return c->second;
    }
    auto op = w_.spec_ops.find(id);
    if (op == w_.spec_ops.end() || op->second.empty()) return std::nullopt;
    return evaluate(op->second, depth + 1);
  }

 private:
  std::optional<std::uint64_t> evaluate(const std::vector<std::uint32_t>& op, int depth) const {
    enum : std::uint32_t {
      UConvert = 113,
      SConvert = 114,
      CompositeExtract = 81,
      IAdd = 128,
      ISub = 130,
      IMul = 132,
      UDiv = 134,
      SDiv = 135,
      UMod = 137,
      ShiftRightLogical = 194,
      ShiftLeftLogical = 196,
      BitwiseOr = 197,
      BitwiseAnd = 199,
    };
    if (op[0] == CompositeExtract && op.size() == 3) {
      auto parts = w_.composites.find(op[1]);
      if (parts == w_.composites.end() || op[2] >= parts->second.size()) return std::nullopt;
      return value(parts->second[op[2]], depth);
    }
    if ((op[0] == UConvert || op[0] == SConvert) && op.size() == 2) return value(op[1], depth);
    if (op.size() != 3) return std::nullopt;
    const auto a = value(op[1], depth), b = value(op[2], depth);
    if (!a || !b) return std::nullopt;
    switch (op[0]) {
      case IAdd:
        return *a + *b;
      case ISub:
        return *a - *b;
      case IMul:
        return *a * *b;
      case UDiv:
      case SDiv:
        return *b ? std::optional(*a / *b) : std::nullopt;
      case UMod:
        return *b ? std::optional(*a % *b) : std::nullopt;
      case ShiftRightLogical:
        return *b < 64 ? std::optional(*a >> *b) : std::nullopt;
      case ShiftLeftLogical:
        return *b < 64 ? std::optional(*a << *b) : std::nullopt;
      case BitwiseOr:
        return *a | *b;
      case BitwiseAnd:
        return *a & *b;
      default:
        return std::nullopt;
    }
  }

  const Walk& w_;
  const std::map<std::uint32_t, std::uint32_t>& spec_;
};

struct Extent {
  std::uint64_t size = 0, align = 1;
};

std::uint64_t round_up(std::uint64_t x, std::uint64_t to) {
  return (x + to - 1) / to * to;
}

// A workgroup variable's type laid out naturally, each scalar aligned to its own size: the least
// any implementation allocates for it (workgroup memory has no explicit layout).
std::optional<Extent> natural_extent(const Walk& w, std::uint32_t id, const Evaluator& e,
                                     int depth = 0) {
  auto it = w.types.find(id);
  if (it == w.types.end() || depth > 16) return std::nullopt;
  const auto& t = it->second;
  switch (t[0]) {
    case OpTypeBool:
      return Extent{1, 1};
    case OpTypeInt:
    case OpTypeFloat: {
      const std::uint64_t bytes = t.size() > 1 ? std::max<std::uint32_t>(t[1] / 8, 1) : 4;
      return Extent{bytes, bytes};
    }
    case OpTypeVector:
    case OpTypeMatrix: {
      if (t.size() < 3) return std::nullopt;
      const auto part = natural_extent(w, t[1], e, depth + 1);
      if (!part) return std::nullopt;
      return Extent{t[2] * round_up(part->size, part->align), part->align};
    }
    case OpTypeArray: {
      if (t.size() < 3) return std::nullopt;
      const auto element = natural_extent(w, t[1], e, depth + 1);
      const auto length = e.value(t[2]);
      if (!element || !length) return std::nullopt;
      return Extent{*length * round_up(element->size, element->align), element->align};
    }
    case OpTypeStruct: {
      Extent s;
      for (std::size_t m = 1; m < t.size(); ++m) {
        const auto member = natural_extent(w, t[m], e, depth + 1);
        if (!member) return std::nullopt;
        s.size = round_up(s.size, member->align) + member->size;
        s.align = std::max(s.align, member->align);
      }
      s.size = round_up(s.size, s.align);
      return s;
    }
    case OpTypePointer:
      return Extent{8, 8};
    default:
      return std::nullopt;
  }
}

}  // namespace

ModuleInterface read_interface(std::span<const std::uint32_t> words) {
  Walk w = walk(words);
  resolve_local_sizes(w);
  ModuleInterface m;
  for (const auto& e : w.entries) m.entry_points.push_back(e.point);
  for (const auto& v : w.variables) {
    if (v.storage == StoragePushConstant) {
      m.push_constant_bytes = type_bytes(w, pointee(w, v.type));
    } else if (v.storage == StorageUniform || v.storage == StorageStorageBuffer ||
               v.storage == StorageUniformConstant) {
      m.resources.push_back(resource_of(w, v));
    }
  }
  return m;
}

std::vector<std::uint32_t> words_from_bytes(std::string_view bytes) {
  if (bytes.size() % 4 != 0)
    fail("a SPIR-V file is a whole number of 32-bit words; this one has " +
         std::to_string(bytes.size()) + " bytes");
  std::vector<std::uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  if (words.empty() || (words[0] != kMagic && words[0] != kSwappedMagic))
    fail("not a SPIR-V file: no SPIR-V magic number");
  return words;
}

std::optional<std::uint64_t> workgroup_memory_bytes(
    std::span<const std::uint32_t> words,
    const std::map<std::uint32_t, std::uint32_t>& specialization) {
  const Walk w = walk(words);
  const Evaluator evaluate(w, specialization);
  std::uint64_t total = 0;
  for (const auto& v : w.variables) {
    if (v.storage != StorageWorkgroup) continue;
    auto pointer = w.types.find(v.type);
    if (pointer == w.types.end() || pointer->second[0] != OpTypePointer ||
        pointer->second.size() < 3)
      return std::nullopt;
    const auto extent = natural_extent(w, pointer->second[2], evaluate);
    if (!extent) return std::nullopt;
    total = round_up(total, extent->align) + extent->size;
  }
  return total;
}

}  // namespace xr::shaders
