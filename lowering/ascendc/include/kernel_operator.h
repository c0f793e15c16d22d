/* kernel_operator.h: a CPU model of the subset of the Ascend C API that dit's generated
 * kernels use (crate dit-ascendc, `dit-opt --emit=ascendc`).
 *
 * The real header comes with the CANN toolkit and compiles kernels for the AI Core. This one
 * lets the same kernel sources compile with a host C++17 compiler and run here, one AI Core at a
 * time, so that every generated kernel is tested against the reference runtime without Ascend
 * hardware. Names and signatures are those of the Ascend C documentation (namespace AscendC);
 * only what the generator emits exists. The model is strict where the hardware is unforgiving,
 * and reports a violation by throwing AscendC::ModelError (the launcher turns it into an error
 * message) instead of computing garbage:
 *
 *  - Unified Buffer: TPipe::InitBuffer allocates from one UB of DIT_UB_BYTES bytes per core
 *    (the target table's size); asking for more than the UB holds is an error. Fresh buffers
 *    are filled with 0xFF bytes (NaN in every float format) so reads of unwritten data show.
 *  - Alignment: every LocalTensor operand of a vector instruction or of DataCopy starts on a
 *    32-byte boundary; DataCopy moves whole 32-byte blocks (lengths are multiples of 32 bytes:
 *    unaligned rows use DataCopyPad, whose padding the model poisons with NaN bytes, as its
 *    contents are undefined on the hardware unless isPad is set).
 *  - Queues: AllocTensor needs a free buffer, EnQue an allocated tensor of this queue and room
 *    in the queue (depth), DeQue an enqueued one, FreeTensor an allocated or dequeued one; a
 *    tensor is not used after FreeTensor or TPipe::Reset, a VECIN tensor is written by DataCopy
 *    only before EnQue and read by vector instructions only after DeQue, a VECOUT tensor is
 *    written by vector instructions only before EnQue and read by DataCopy only after DeQue;
 *    a tensor of a TQueBind<VECIN, VECOUT> (a pass-through) is never touched by a vector
 *    instruction: DataCopy in before EnQue, DataCopy out after DeQue.
 *  - Counts: a vector instruction's element count fits in every operand; GlobalTensor accesses
 *    stay inside the buffer given to SetGlobalBuffer.
 *  - Scalar/vector ordering: LocalTensor::GetValue on bytes a vector instruction wrote needs a
 *    V_S SetFlag/WaitFlag pair in between; a vector instruction reading bytes SetValue wrote
 *    needs an S_V pair.
 *
 * Arithmetic is float (IEEE binary32, round to nearest even); half and bfloat16_t convert with
 * round to nearest even. ReduceSum adds as the Atlas A2 "first n elements" form does: a binary
 * tree inside each 256-byte repeat, repeats accumulated in order.
 *
 * Multi-core: AscendC::Model::Launch runs a kernel once per block index, sequentially, each
 * block with a fresh UB; GetBlockIdx/GetBlockNum report the block.
 */
#ifndef DIT_ASCENDC_CPU_MODEL_KERNEL_OPERATOR_H
#define DIT_ASCENDC_CPU_MODEL_KERNEL_OPERATOR_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#ifndef DIT_UB_BYTES
#define DIT_UB_BYTES (192 * 1024)
#endif

/* Kernel qualifiers and the GM address type: no meaning on the host. */
#define __global__
#define __aicore__
#define __gm__
typedef uint8_t *GM_ADDR;

/* The kernel type a kernel launches as ("设置Kernel类型", atlasascendc_api_07_0218): the CANN
 * build starts only the AI Cores' vector units for KERNEL_TYPE_AIV_ONLY; the model runs every
 * block on the host either way. */
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};
#define KERNEL_TASK_TYPE_DEFAULT(value) ((void)(value))

namespace AscendC {

/* A violation of the API's rules, or of the UB size. */
struct ModelError : std::runtime_error {
    explicit ModelError(const std::string &what) : std::runtime_error(what) {}
};

[[noreturn]] inline void Fail(const std::string &what) { throw ModelError(what); }

/* ---------------------------------------------------------------- element types */

inline uint32_t FloatBits(float f) { uint32_t b; std::memcpy(&b, &f, 4); return b; }
inline float BitsFloat(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }

/* IEEE binary16, converted with round to nearest even (overflow to infinity). */
struct half {
    uint16_t bits = 0;
    half() = default;
    half(float f) : bits(FromFloat(f)) {}
    operator float() const { return ToFloat(bits); }
    static uint16_t FromFloat(float f) {
        uint32_t x = FloatBits(f);
        uint32_t sign = (x >> 16) & 0x8000u;
        uint32_t exp = (x >> 23) & 0xFFu;
        uint32_t man = x & 0x7FFFFFu;
        if (exp == 0xFF) return uint16_t(sign | 0x7C00u | (man ? 0x200u : 0u));
        int32_t e = int32_t(exp) - 127 + 15;
        if (e >= 31) return uint16_t(sign | 0x7C00u);
        if (e <= 0) {
            if (e < -10) return uint16_t(sign);
            man |= 0x800000u;
            uint32_t shift = uint32_t(14 - e);
            uint32_t q = man >> shift, rem = man & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
            if (rem > halfway || (rem == halfway && (q & 1u))) q++;
            return uint16_t(sign | q);
        }
        uint32_t q = (uint32_t(e) << 10) | (man >> 13);
        uint32_t rem = man & 0x1FFFu;
        if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) q++;
        return uint16_t(sign | q);
    }
    static float ToFloat(uint16_t h) {
        uint32_t sign = uint32_t(h & 0x8000u) << 16;
        uint32_t exp = (h >> 10) & 0x1Fu;
        uint32_t man = h & 0x3FFu;
        if (exp == 0x1F) return BitsFloat(sign | 0x7F800000u | (man << 13));
        if (exp == 0) {
            if (man == 0) return BitsFloat(sign);
            float v = std::ldexp(float(man), -24);
            return sign ? -v : v;
        }
        return BitsFloat(sign | ((exp + 112u) << 23) | (man << 13));
    }
};

/* bfloat16, converted with round to nearest even. */
struct bfloat16_t {
    uint16_t bits = 0;
    bfloat16_t() = default;
    bfloat16_t(float f) : bits(FromFloat(f)) {}
    operator float() const { return BitsFloat(uint32_t(bits) << 16); }
    static uint16_t FromFloat(float f) {
        uint32_t x = FloatBits(f);
        if ((x & 0x7FFFFFFFu) > 0x7F800000u) return uint16_t((x >> 16) | 0x40u);
        return uint16_t((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
    }
};

template <typename T> const char *TypeName();
template <> inline const char *TypeName<float>() { return "float"; }
template <> inline const char *TypeName<half>() { return "half"; }
template <> inline const char *TypeName<bfloat16_t>() { return "bfloat16_t"; }
template <> inline const char *TypeName<uint32_t>() { return "uint32_t"; }

constexpr uint32_t ONE_BLK_SIZE = 32;     /* bytes of one data block */
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256; /* bytes one vector repeat processes */

/* ---------------------------------------------------------------- positions, events */

enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC };
using QuePosition = TPosition;

inline const char *PositionName(TPosition p) {
    switch (p) {
    case TPosition::VECIN: return "VECIN";
    case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC";
    default: return "other";
    }
}

enum class HardEvent : uint8_t { MTE2_V, V_MTE2, MTE3_V, V_MTE3, V_S, S_V, MTE2_S, S_MTE2, MTE3_S, S_MTE3, MTE2_MTE3, MTE3_MTE2 };
typedef int32_t event_t;

enum class RoundMode : uint8_t { CAST_NONE, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };

/* ---------------------------------------------------------------- per-core state */

namespace Model {

/* What one AI Core holds while a block runs. */
struct Core {
    std::vector<uint8_t> ub;
    uint32_t ubBytes = DIT_UB_BYTES;
    uint32_t used = 0;          /* bytes InitBuffer handed out */
    uint64_t pipeEpoch = 1;     /* bumped by TPipe::Reset and a new TPipe */
    int64_t blockIdx = 0, blockNum = 1;
    bool pipeAlive = false;
    /* Bytes written by vector instructions since the last V_S wait, and by SetValue since
     * the last S_V wait: [begin, end) intervals, merged. */
    std::map<uint32_t, uint32_t> vecWrites, scalarWrites;
    std::map<std::pair<int, int>, int> flags; /* (event, id) -> pending SetFlag count */
};

inline Core &ThisCore() {
    static thread_local Core core;
    return core;
}

inline void AddInterval(std::map<uint32_t, uint32_t> &set, uint32_t b, uint32_t e) {
    if (b >= e) return;
    auto it = set.upper_bound(b);
    if (it != set.begin()) {
        auto prev = std::prev(it);
        if (prev->second >= b) { b = prev->first; if (prev->second > e) e = prev->second; set.erase(prev); }
    }
    while (true) {
        it = set.lower_bound(b);
        if (it == set.end() || it->first > e) break;
        if (it->second > e) e = it->second;
        set.erase(it);
    }
    set[b] = e;
}

inline bool Overlaps(const std::map<uint32_t, uint32_t> &set, uint32_t b, uint32_t e) {
    auto it = set.upper_bound(b);
    if (it != set.begin() && std::prev(it)->second > b) return true;
    return it != set.end() && it->first < e;
}

} // namespace Model

inline int64_t GetBlockIdx() { return Model::ThisCore().blockIdx; }
inline int64_t GetBlockNum() { return Model::ThisCore().blockNum; }

/* ---------------------------------------------------------------- queue slots */

namespace Model {
enum class SlotState : uint8_t { Free, Allocated, Enqueued, Dequeued };
inline const char *StateName(SlotState s) {
    switch (s) {
    case SlotState::Free: return "free";
    case SlotState::Allocated: return "allocated";
    case SlotState::Enqueued: return "enqueued";
    default: return "dequeued";
    }
}
/* One buffer of a TQue: its state, and a generation bumped by FreeTensor so that stale
 * LocalTensors are caught. */
struct Slot {
    SlotState state = SlotState::Free;
    uint64_t generation = 0;
    uint32_t offset = 0;
    const char *queue = "";
    /* A buffer of a TQueBind<VECIN, VECOUT>: moved by DataCopy only, never by the vector unit. */
    bool bound = false;
};
} // namespace Model

/* ---------------------------------------------------------------- tensors */

template <typename T> class LocalTensor {
public:
    LocalTensor() = default;

    /* Sub-tensor starting `offset` elements in (same buffer, same queue slot). */
    LocalTensor operator[](uint32_t offset) const {
        Check("operator[]");
        if (offset > size_) Fail(std::string("LocalTensor[") + std::to_string(offset) + "] past its " + std::to_string(size_) + " elements");
        LocalTensor t = *this;
        t.byteOffset_ = byteOffset_ + offset * uint32_t(sizeof(T));
        t.size_ = size_ - offset;
        return t;
    }
    uint32_t GetSize() const { return size_; }
    TPosition GetPosition() const { return position_; }

    template <typename U> LocalTensor<U> ReinterpretCast() const {
        Check("ReinterpretCast");
        LocalTensor<U> t;
        t.byteOffset_ = byteOffset_;
        t.size_ = uint32_t(uint64_t(size_) * sizeof(T) / sizeof(U));
        t.position_ = position_;
        t.slot_ = slot_;
        t.generation_ = generation_;
        t.epoch_ = epoch_;
        return t;
    }

    /* Scalar read of one element: waits for the vector unit only through a V_S flag. */
    T GetValue(uint32_t i) const {
        Check("GetValue");
        if (i >= size_) Fail("GetValue(" + std::to_string(i) + ") past " + std::to_string(size_) + " elements");
        uint32_t at = byteOffset_ + i * uint32_t(sizeof(T));
        if (Model::Overlaps(Model::ThisCore().vecWrites, at, at + uint32_t(sizeof(T))))
            Fail("GetValue reads UB byte " + std::to_string(at) + " written by a vector instruction without a V_S SetFlag/WaitFlag in between");
        T v;
        std::memcpy(&v, Model::ThisCore().ub.data() + at, sizeof(T));
        return v;
    }
    /* Scalar write of one element: a later vector read needs an S_V flag. */
    void SetValue(uint32_t i, T v) const {
        Check("SetValue");
        if (i >= size_) Fail("SetValue(" + std::to_string(i) + ") past " + std::to_string(size_) + " elements");
        uint32_t at = byteOffset_ + i * uint32_t(sizeof(T));
        std::memcpy(Model::ThisCore().ub.data() + at, &v, sizeof(T));
        Model::AddInterval(Model::ThisCore().scalarWrites, at, at + uint32_t(sizeof(T)));
    }

    /* ---- model internals (not Ascend C API) ---- */
    void Check(const char *what) const {
        if (epoch_ == 0) Fail(std::string(what) + " on a LocalTensor that was never allocated");
        if (epoch_ != Model::ThisCore().pipeEpoch) Fail(std::string(what) + " on a LocalTensor from before TPipe::Reset");
        if (slot_ && (slot_->generation != generation_ || slot_->state == Model::SlotState::Free))
            Fail(std::string(what) + " on a tensor of queue " + slot_->queue + " after FreeTensor");
    }
    /* Checks operand rules of a vector instruction: 32-byte aligned start, `count` elements in
     * range, and the queue state that allows reading (`write` false) or writing it. */
    void CheckVector(const char *op, uint64_t count, bool write) const {
        Check(op);
        if (byteOffset_ % ONE_BLK_SIZE != 0)
            Fail(std::string(op) + ": LocalTensor starts at UB byte " + std::to_string(byteOffset_) + ", not 32-byte aligned");
        if (count > size_)
            Fail(std::string(op) + ": count " + std::to_string(count) + " exceeds the tensor's " + std::to_string(size_) + " elements");
        if (slot_ && slot_->bound)
            Fail(std::string(op) + ": a tensor of bound queue " + slot_->queue +
                 " (TQueBind VECIN->VECOUT only moves data: its EnQue/DeQue order the copy-in before the copy-out, not the vector pipe)");
        if (slot_) {
            bool in = position_ == TPosition::VECIN;
            Model::SlotState want = in ? Model::SlotState::Dequeued : Model::SlotState::Allocated;
            if (!in && !write && slot_->state == Model::SlotState::Dequeued) want = Model::SlotState::Dequeued;
            if (slot_->state != want)
                Fail(std::string(op) + ": " + PositionName(position_) + " tensor of queue " + slot_->queue + " is " + Model::StateName(slot_->state) +
                     (in ? " (vector instructions read VECIN tensors after DeQue)" : " (vector instructions write VECOUT tensors before EnQue)"));
        }
        uint32_t b = byteOffset_, e = byteOffset_ + uint32_t(count * sizeof(T));
        auto &core = Model::ThisCore();
        if (!write && Model::Overlaps(core.scalarWrites, b, e))
            Fail(std::string(op) + " reads UB bytes SetValue wrote without an S_V SetFlag/WaitFlag in between");
        if (write) Model::AddInterval(core.vecWrites, b, e);
    }
    T *Data() const { return reinterpret_cast<T *>(Model::ThisCore().ub.data() + byteOffset_); }
    uint32_t ByteOffset() const { return byteOffset_; }
    Model::Slot *SlotOf() const { return slot_; }

    uint32_t byteOffset_ = 0;
    uint32_t size_ = 0;
    TPosition position_ = TPosition::VECCALC;
    Model::Slot *slot_ = nullptr;
    uint64_t generation_ = 0;
    uint64_t epoch_ = 0;
};

template <typename T> class GlobalTensor {
public:
    void SetGlobalBuffer(__gm__ T *buffer, uint64_t size) { base_ = buffer; offset_ = 0; size_ = size; }
    GlobalTensor operator[](uint64_t offset) const {
        if (offset > size_) Fail("GlobalTensor[" + std::to_string(offset) + "] past its " + std::to_string(size_) + " elements");
        GlobalTensor t = *this;
        t.offset_ = offset_ + offset;
        t.size_ = size_ - offset;
        return t;
    }
    uint64_t GetSize() const { return size_; }
    /* ---- model internals ---- */
    uint8_t *Bytes(uint64_t byteOffset, uint64_t bytes, const char *op) const {
        if (!base_) Fail(std::string(op) + ": GlobalTensor without SetGlobalBuffer");
        if (byteOffset + bytes > size_ * sizeof(T))
            Fail(std::string(op) + ": GM access of " + std::to_string(bytes) + " bytes at byte " + std::to_string(byteOffset) +
                 " leaves the GlobalTensor's " + std::to_string(size_ * sizeof(T)) + " bytes");
        return reinterpret_cast<uint8_t *>(base_ + offset_) + byteOffset;
    }
    T *base_ = nullptr;
    uint64_t offset_ = 0, size_ = 0;
};

/* ---------------------------------------------------------------- TPipe, TQue, TBuf */

class TPipe;

namespace Model {
inline TPipe *&CurrentPipe() {
    static thread_local TPipe *pipe = nullptr;
    return pipe;
}
/* Hands out `bytes` (rounded up to 32) of the core's UB, poisoned, or fails. */
inline uint32_t Allocate(uint64_t bytes, const char *what) {
    Core &core = ThisCore();
    if (!core.pipeAlive) Fail(std::string("InitBuffer(") + what + ") without a live TPipe");
    uint64_t rounded = (bytes + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (uint64_t(core.used) + rounded > core.ubBytes)
        Fail(std::string("TPipe::InitBuffer(") + what + "): " + std::to_string(core.used) + " + " + std::to_string(rounded) +
             " bytes exceed the Unified Buffer's " + std::to_string(core.ubBytes) + " bytes");
    uint32_t at = core.used;
    core.used += uint32_t(rounded);
    std::memset(core.ub.data() + at, 0xFF, rounded);
    return at;
}
} // namespace Model

/* The queue name a model error names: the position, or both ends of a bound queue. */
inline const char *QueueName(TPosition src, TPosition dst) {
    if (src == dst) return PositionName(src);
    return src == TPosition::VECIN && dst == TPosition::VECOUT ? "VECIN->VECOUT" : "bound";
}

/* A queue from position `src` to `dst` of `depth` tensors in flight ("TQueBind简介",
 * atlasascendc_api_07_0147). AllocTensor hands out a `src` tensor, DeQue a `dst` one.
 * TQueBind<VECIN, VECOUT> is the pure data-movement queue ("纯搬运类算子VECIN和VECOUT建议复用",
 * atlas_ascendc_best_practices_10_0026): DataCopy GM -> UB into the allocated tensor, EnQue,
 * DeQue, DataCopy UB -> GM, FreeTensor. Its EnQue/DeQue order the GM -> UB copy before the
 * UB -> GM one and nothing else, so the model refuses vector instructions on its tensors. */
template <TPosition src, TPosition dst, int32_t depth> class TQueBind {
public:
    template <typename T> LocalTensor<T> AllocTensor() {
        CheckInit("AllocTensor");
        for (uint32_t k = 0; k < num_; k++) {
            Model::Slot &s = slots_[(next_ + k) % num_];
            if (s.state != Model::SlotState::Free) continue;
            next_ = (next_ + k + 1) % num_;
            s.state = Model::SlotState::Allocated;
            LocalTensor<T> t;
            t.byteOffset_ = s.offset;
            t.size_ = len_ / uint32_t(sizeof(T));
            t.position_ = src;
            t.slot_ = &s;
            t.generation_ = s.generation;
            t.epoch_ = epoch_;
            return t;
        }
        Fail("AllocTensor: all " + std::to_string(num_) + " buffers of queue " + std::string(name_) + " are in use (a FreeTensor is missing)");
    }
    template <typename T> void EnQue(const LocalTensor<T> &t) {
        CheckInit("EnQue");
        Model::Slot *s = Own(t, "EnQue");
        if (s->state != Model::SlotState::Allocated)
            Fail(std::string("EnQue on a ") + Model::StateName(s->state) + " tensor of queue " + std::string(name_) + " (EnQue takes an AllocTensor result)");
        if (fifo_.size() >= size_t(depth)) Fail("EnQue: queue " + std::string(name_) + " already holds its depth of " + std::to_string(depth) + " tensors");
        s->state = Model::SlotState::Enqueued;
        fifo_.push_back(s);
    }
    template <typename T> LocalTensor<T> DeQue() {
        CheckInit("DeQue");
        if (fifo_.empty()) Fail("DeQue on queue " + std::string(name_) + " with nothing enqueued (the matching EnQue is missing)");
        Model::Slot *s = fifo_.front();
        fifo_.erase(fifo_.begin());
        s->state = Model::SlotState::Dequeued;
        LocalTensor<T> t;
        t.byteOffset_ = s->offset;
        t.size_ = len_ / uint32_t(sizeof(T));
        t.position_ = dst;
        t.slot_ = s;
        t.generation_ = s->generation;
        t.epoch_ = epoch_;
        return t;
    }
    template <typename T> void FreeTensor(const LocalTensor<T> &t) {
        CheckInit("FreeTensor");
        Model::Slot *s = Own(t, "FreeTensor");
        if (s->state != Model::SlotState::Allocated && s->state != Model::SlotState::Dequeued)
            Fail(std::string("FreeTensor on a ") + Model::StateName(s->state) + " tensor of queue " + std::string(name_));
        s->state = Model::SlotState::Free;
        s->generation++;
    }
    /* ---- model internals ---- */
    void Init(uint32_t num, uint32_t len, uint32_t base, uint64_t epoch, const char *name) {
        if (num == 0) Fail("InitBuffer: a queue needs at least one buffer");
        slots_.assign(num, Model::Slot{});
        for (uint32_t k = 0; k < num; k++) { slots_[k].offset = base + k * len; slots_[k].queue = name; slots_[k].bound = src != dst; }
        num_ = num; len_ = len; epoch_ = epoch; name_ = name; next_ = 0; fifo_.clear();
    }

private:
    void CheckInit(const char *op) const {
        if (num_ == 0) Fail(std::string(op) + " on a queue without InitBuffer");
        if (epoch_ != Model::ThisCore().pipeEpoch) Fail(std::string(op) + " on queue " + std::string(name_) + " after TPipe::Reset");
    }
    template <typename T> Model::Slot *Own(const LocalTensor<T> &t, const char *op) {
        t.Check(op);
        Model::Slot *s = t.SlotOf();
        if (!s || s < slots_.data() || s >= slots_.data() + slots_.size() || t.ByteOffset() != s->offset)
            Fail(std::string(op) + ": the tensor is not a whole buffer of queue " + std::string(name_));
        return s;
    }
    std::vector<Model::Slot> slots_;
    std::vector<Model::Slot *> fifo_;
    uint32_t num_ = 0, len_ = 0, next_ = 0;
    uint64_t epoch_ = 0;
    const char *name_ = "";
};

/* A queue at one position: TQueBind with both ends there. */
template <TPosition pos, int32_t depth> class TQue : public TQueBind<pos, pos, depth> {};

template <TPosition pos> class TBuf {
public:
    template <typename T> LocalTensor<T> Get() const { return Get<T>(len_ / uint32_t(sizeof(T))); }
    template <typename T> LocalTensor<T> Get(uint32_t count) const {
        if (len_ == 0) Fail("TBuf::Get without InitBuffer");
        if (epoch_ != Model::ThisCore().pipeEpoch) Fail("TBuf::Get after TPipe::Reset");
        if (uint64_t(count) * sizeof(T) > len_) Fail("TBuf::Get(" + std::to_string(count) + ") exceeds the buffer's " + std::to_string(len_) + " bytes");
        LocalTensor<T> t;
        t.byteOffset_ = base_;
        t.size_ = count;
        t.position_ = pos;
        t.epoch_ = epoch_;
        return t;
    }
    void Init(uint32_t len, uint32_t base, uint64_t epoch) { len_ = len; base_ = base; epoch_ = epoch; }

private:
    uint32_t len_ = 0, base_ = 0;
    uint64_t epoch_ = 0;
};

class TPipe {
public:
    TPipe() {
        Model::Core &core = Model::ThisCore();
        if (core.pipeAlive) Fail("a second TPipe while one is alive on this core");
        core.pipeAlive = true;
        core.used = 0;
        core.pipeEpoch++;
        Model::CurrentPipe() = this;
    }
    ~TPipe() {
        Model::ThisCore().pipeAlive = false;
        Model::CurrentPipe() = nullptr;
    }
    template <TPosition src, TPosition dst, int32_t depth> void InitBuffer(TQueBind<src, dst, depth> &que, uint8_t num, uint32_t len) {
        uint32_t rounded = (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
        uint32_t base = Model::Allocate(uint64_t(num) * rounded, QueueName(src, dst));
        que.Init(num, rounded, base, Model::ThisCore().pipeEpoch, QueueName(src, dst));
    }
    template <TPosition pos> void InitBuffer(TBuf<pos> &buf, uint32_t len) {
        uint32_t base = Model::Allocate(len, "TBuf");
        buf.Init((len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE, base, Model::ThisCore().pipeEpoch);
    }
    /* Releases every buffer: queues, TBufs and tensors from before are invalid afterwards. */
    void Reset() {
        Model::Core &core = Model::ThisCore();
        core.used = 0;
        core.pipeEpoch++;
        core.vecWrites.clear();
        core.scalarWrites.clear();
        core.flags.clear();
    }
    event_t FetchEventID(HardEvent) { return 0; }
};

inline TPipe *GetTPipePtr() {
    if (!Model::CurrentPipe()) Fail("GetTPipePtr without a live TPipe");
    return Model::CurrentPipe();
}

template <HardEvent e> void SetFlag(event_t id) { Model::ThisCore().flags[{int(e), id}]++; }
template <HardEvent e> void WaitFlag(event_t id) {
    auto &core = Model::ThisCore();
    auto it = core.flags.find({int(e), id});
    if (it == core.flags.end() || it->second == 0) Fail("WaitFlag without a SetFlag of the same event (the core would hang)");
    it->second--;
    if (e == HardEvent::V_S) core.vecWrites.clear();
    if (e == HardEvent::S_V) core.scalarWrites.clear();
}

/* ---------------------------------------------------------------- data movement */

struct DataCopyParams {
    DataCopyParams() {}
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;  /* 32-byte blocks */
    uint16_t srcStride = 0; /* gap between blocks, 32-byte blocks */
    uint16_t dstStride = 0;
};

struct DataCopyExtParams {
    DataCopyExtParams() {}
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;  /* bytes */
    uint32_t srcStride = 0; /* gap: bytes on GM, 32-byte blocks on UB */
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <typename T> struct DataCopyPadExtParams {
    DataCopyPadExtParams() {}
    DataCopyPadExtParams(bool isPadValue, uint8_t leftPadValue, uint8_t rightPadValue, T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
};

namespace Model {
inline void CheckBurstCount(uint32_t count, const char *op) {
    if (count == 0 || count > 4095) Fail(std::string(op) + ": blockCount " + std::to_string(count) + " outside 1..4095");
}
template <typename T> void CheckCopyIn(const LocalTensor<T> &dst, const char *op) {
    dst.Check(op);
    if (dst.byteOffset_ % ONE_BLK_SIZE) Fail(std::string(op) + ": UB destination not 32-byte aligned");
    if (dst.position_ != TPosition::VECIN && dst.position_ != TPosition::VECOUT)
        Fail(std::string(op) + ": GM -> UB copies go to VECIN/VECOUT, not " + PositionName(dst.position_));
    if (dst.slot_ && dst.slot_->state != SlotState::Allocated)
        Fail(std::string(op) + ": GM -> UB into a " + StateName(dst.slot_->state) + " tensor of queue " + dst.slot_->queue + " (copy in between AllocTensor and EnQue)");
}
template <typename T> void CheckCopyOut(const LocalTensor<T> &src, const char *op) {
    src.Check(op);
    if (src.byteOffset_ % ONE_BLK_SIZE) Fail(std::string(op) + ": UB source not 32-byte aligned");
    if (src.position_ != TPosition::VECIN && src.position_ != TPosition::VECOUT)
        Fail(std::string(op) + ": UB -> GM copies come from VECIN/VECOUT, not " + PositionName(src.position_));
    if (src.slot_ && src.slot_->state != SlotState::Dequeued)
        Fail(std::string(op) + ": UB -> GM from a " + StateName(src.slot_->state) + " tensor of queue " + src.slot_->queue + " (copy out after DeQue)");
}
inline void CheckUb(uint64_t end, uint64_t limit, const char *op) {
    if (end > limit) Fail(std::string(op) + ": UB access ends " + std::to_string(end - limit) + " bytes past the LocalTensor");
}
} // namespace Model

/* Contiguous GM -> UB copy of `count` elements: whole 32-byte blocks only. */
template <typename T> void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
    Model::CheckCopyIn(dst, "DataCopy");
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % ONE_BLK_SIZE) Fail("DataCopy: " + std::to_string(bytes) + " bytes is not a multiple of 32 (use DataCopyPad)");
    Model::CheckUb(bytes, uint64_t(dst.size_) * sizeof(T), "DataCopy");
    std::memcpy(dst.Data(), src.Bytes(0, bytes, "DataCopy"), bytes);
}
/* Contiguous UB -> GM copy of `count` elements: whole 32-byte blocks only. */
template <typename T> void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    Model::CheckCopyOut(src, "DataCopy");
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % ONE_BLK_SIZE) Fail("DataCopy: " + std::to_string(bytes) + " bytes is not a multiple of 32 (use DataCopyPad)");
    Model::CheckUb(bytes, uint64_t(src.size_) * sizeof(T), "DataCopy");
    std::memcpy(dst.Bytes(0, bytes, "DataCopy"), src.Data(), bytes);
}
/* Strided UB -> UB copy: blockCount bursts of blockLen 32-byte blocks, gaps in blocks. */
template <typename T> void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p) {
    Model::CheckBurstCount(p.blockCount, "DataCopy");
    uint64_t burst = uint64_t(p.blockLen) * ONE_BLK_SIZE;
    uint64_t srcEnd = (uint64_t(p.blockCount) - 1) * (burst + uint64_t(p.srcStride) * ONE_BLK_SIZE) + burst;
    uint64_t dstEnd = (uint64_t(p.blockCount) - 1) * (burst + uint64_t(p.dstStride) * ONE_BLK_SIZE) + burst;
    src.CheckVector("DataCopy", 0, false);
    dst.CheckVector("DataCopy", 0, false);
    Model::CheckUb(srcEnd, uint64_t(src.size_) * sizeof(T), "DataCopy");
    Model::CheckUb(dstEnd, uint64_t(dst.size_) * sizeof(T), "DataCopy");
    if (Model::Overlaps(Model::ThisCore().scalarWrites, src.byteOffset_, src.byteOffset_ + uint32_t(srcEnd)))
        Fail("DataCopy reads UB bytes SetValue wrote without an S_V SetFlag/WaitFlag in between");
    std::vector<uint8_t> tmp(src.Data() ? srcEnd : 0);
    std::memcpy(tmp.data(), reinterpret_cast<const uint8_t *>(src.Data()), srcEnd);
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.Data());
    for (uint32_t b = 0; b < p.blockCount; b++)
        std::memcpy(d + b * (burst + uint64_t(p.dstStride) * ONE_BLK_SIZE), tmp.data() + b * (burst + uint64_t(p.srcStride) * ONE_BLK_SIZE), burst);
    Model::AddInterval(Model::ThisCore().vecWrites, dst.byteOffset_, dst.byteOffset_ + uint32_t(dstEnd));
}
/* Contiguous UB -> UB copy of `count` elements (whole 32-byte blocks). */
template <typename T> void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    uint64_t bytes = uint64_t(count) * sizeof(T);
    if (bytes % ONE_BLK_SIZE) Fail("DataCopy: " + std::to_string(bytes) + " bytes is not a multiple of 32");
    DataCopy(dst, src, DataCopyParams(1, uint16_t(bytes / ONE_BLK_SIZE), 0, 0));
}

/* GM -> UB with any burst length: each of blockCount bursts of blockLen bytes lands on a
 * 32-byte boundary, the rest of its last block is padding (poisoned unless isPad). GM gaps are
 * bytes, UB gaps 32-byte blocks. */
template <typename T>
void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p, const DataCopyPadExtParams<T> &pad) {
    Model::CheckCopyIn(dst, "DataCopyPad");
    Model::CheckBurstCount(p.blockCount, "DataCopyPad");
    if (p.blockLen % sizeof(T)) Fail("DataCopyPad: blockLen " + std::to_string(p.blockLen) + " is not a whole number of elements");
    if (pad.leftPadding) Fail("DataCopyPad: leftPadding is not modelled");
    uint64_t padded = (uint64_t(p.blockLen) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (pad.isPad && p.blockLen + uint64_t(pad.rightPadding) * sizeof(T) > padded)
        Fail("DataCopyPad: rightPadding reaches past the burst's last 32-byte block");
    uint64_t dstPitch = padded + uint64_t(p.dstStride) * ONE_BLK_SIZE;
    uint64_t srcPitch = uint64_t(p.blockLen) + p.srcStride;
    Model::CheckUb((p.blockCount - 1) * dstPitch + padded, uint64_t(dst.size_) * sizeof(T), "DataCopyPad");
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.Data());
    for (uint32_t b = 0; b < p.blockCount; b++) {
        uint8_t *row = d + b * dstPitch;
        std::memcpy(row, src.Bytes(b * srcPitch, p.blockLen, "DataCopyPad"), p.blockLen);
        std::memset(row + p.blockLen, 0xFF, padded - p.blockLen);
        if (pad.isPad)
            for (uint32_t k = 0; k < pad.rightPadding; k++) std::memcpy(row + p.blockLen + k * sizeof(T), &pad.paddingValue, sizeof(T));
    }
}
/* UB -> GM with any burst length: bursts start on 32-byte boundaries in UB (gaps in blocks)
 * and are written back to back on GM (gaps in bytes). */
template <typename T> void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p) {
    Model::CheckCopyOut(src, "DataCopyPad");
    Model::CheckBurstCount(p.blockCount, "DataCopyPad");
    if (p.blockLen % sizeof(T)) Fail("DataCopyPad: blockLen " + std::to_string(p.blockLen) + " is not a whole number of elements");
    uint64_t padded = (uint64_t(p.blockLen) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    uint64_t srcPitch = padded + uint64_t(p.srcStride) * ONE_BLK_SIZE;
    uint64_t dstPitch = uint64_t(p.blockLen) + p.dstStride;
    Model::CheckUb((p.blockCount - 1) * srcPitch + p.blockLen, uint64_t(src.size_) * sizeof(T), "DataCopyPad");
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.Data());
    for (uint32_t b = 0; b < p.blockCount; b++)
        std::memcpy(dst.Bytes(b * dstPitch, p.blockLen, "DataCopyPad"), s + b * srcPitch, p.blockLen);
}

/* ---------------------------------------------------------------- vector instructions */

namespace Model {
template <typename T, typename F> void Unary(const char *op, const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count, F f) {
    src.CheckVector(op, count, false);
    dst.CheckVector(op, count, true);
    const T *s = src.Data();
    T *d = dst.Data();
    for (uint32_t i = 0; i < count; i++) d[i] = T(f(float(s[i])));
}
template <typename T, typename F>
void Binary(const char *op, const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, uint32_t count, F f) {
    a.CheckVector(op, count, false);
    b.CheckVector(op, count, false);
    dst.CheckVector(op, count, true);
    const T *x = a.Data(), *y = b.Data();
    T *d = dst.Data();
    for (uint32_t i = 0; i < count; i++) d[i] = T(f(float(x[i]), float(y[i])));
}
} // namespace Model

template <typename T> void Add(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const int32_t count) {
    Model::Binary("Add", d, a, b, uint32_t(count), [](float x, float y) { return x + y; });
}
template <typename T> void Sub(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const int32_t count) {
    Model::Binary("Sub", d, a, b, uint32_t(count), [](float x, float y) { return x - y; });
}
template <typename T> void Mul(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const int32_t count) {
    Model::Binary("Mul", d, a, b, uint32_t(count), [](float x, float y) { return x * y; });
}
template <typename T> void Div(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const int32_t count) {
    Model::Binary("Div", d, a, b, uint32_t(count), [](float x, float y) { return x / y; });
}
template <typename T> void Max(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, const int32_t count) {
    Model::Binary("Max", d, a, b, uint32_t(count), [](float x, float y) { return x > y ? x : y; });
}
/* The repeat form of the binary instructions ("tensor高维切分计算", mask连续模式: Add/Sub/Mul/Div
 * docs, e.g. atlasascendc_api_07_0037 Mul; BinaryRepeatParams atlasascendc_api_07_0013): repeat r
 * of repeatTimes processes the first `mask` elements of 8 data blocks of 32 bytes; block b of
 * repeat r of an operand starts at r * repStride + b * blkStride blocks. For 32-bit types mask is
 * in [1, 64], for 16-bit in [1, 128]; strides are uint8_t. The model checks every operand's start
 * alignment and that the last element touched lies inside the tensor. */
struct BinaryRepeatParams {
    BinaryRepeatParams() {}
    BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                       const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}
    uint32_t blockNumber = 8;
    uint8_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1;
    uint8_t src1BlkStride = 1;
    uint8_t dstRepStride = 8;
    uint8_t src0RepStride = 8;
    uint8_t src1RepStride = 8;
};

namespace Model {
/* Element index of lane j of repeat r for an operand with these strides. */
template <typename T> inline uint64_t RepeatIndex(uint32_t r, uint32_t j, uint8_t blk, uint8_t rep) {
    const uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
    return (uint64_t(r) * rep + uint64_t(j / perBlock) * blk) * perBlock + j % perBlock;
}
template <typename T> void CheckRepeatOperand(const char *op, const LocalTensor<T> &t, uint64_t mask, uint8_t repeatTimes, uint8_t blk, uint8_t rep, bool write) {
    uint64_t last = RepeatIndex<T>(repeatTimes - 1u, uint32_t(mask - 1), blk, rep);
    /* CheckVector checks the start, the queue state and the ordering flags over the span. */
    t.CheckVector(op, last + 1, write);
}
template <typename T, typename F>
void BinaryRepeat(const char *op, const LocalTensor<T> &dst, const LocalTensor<T> &a, const LocalTensor<T> &b, uint64_t mask, uint8_t repeatTimes,
                  const BinaryRepeatParams &p, F f) {
    const uint64_t maxMask = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    if (mask == 0 || mask > maxMask)
        Fail(std::string(op) + ": mask " + std::to_string(mask) + " outside [1, " + std::to_string(maxMask) + "] for " + TypeName<T>());
    if (repeatTimes == 0) return;
    CheckRepeatOperand(op, a, mask, repeatTimes, p.src0BlkStride, p.src0RepStride, false);
    CheckRepeatOperand(op, b, mask, repeatTimes, p.src1BlkStride, p.src1RepStride, false);
    CheckRepeatOperand(op, dst, mask, repeatTimes, p.dstBlkStride, p.dstRepStride, true);
    const T *x = a.Data(), *y = b.Data();
    T *d = dst.Data();
    /* Every repeat reads its operands before it writes (a later repeat may read what an earlier
     * one wrote, as on the hardware where repeats issue in order). */
    std::vector<T> out(mask);
    for (uint32_t r = 0; r < repeatTimes; r++) {
        for (uint32_t j = 0; j < mask; j++)
            out[j] = T(f(float(x[RepeatIndex<T>(r, j, p.src0BlkStride, p.src0RepStride)]), float(y[RepeatIndex<T>(r, j, p.src1BlkStride, p.src1RepStride)])));
        for (uint32_t j = 0; j < mask; j++) d[RepeatIndex<T>(r, j, p.dstBlkStride, p.dstRepStride)] = out[j];
    }
}
} // namespace Model

template <typename T>
void Add(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p) {
    Model::BinaryRepeat("Add", d, a, b, mask, repeatTimes, p, [](float x, float y) { return x + y; });
}
template <typename T>
void Sub(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p) {
    Model::BinaryRepeat("Sub", d, a, b, mask, repeatTimes, p, [](float x, float y) { return x - y; });
}
template <typename T>
void Mul(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p) {
    Model::BinaryRepeat("Mul", d, a, b, mask, repeatTimes, p, [](float x, float y) { return x * y; });
}
template <typename T>
void Div(const LocalTensor<T> &d, const LocalTensor<T> &a, const LocalTensor<T> &b, uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &p) {
    Model::BinaryRepeat("Div", d, a, b, mask, repeatTimes, p, [](float x, float y) { return x / y; });
}
template <typename T> void Exp(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Exp", d, s, uint32_t(count), [](float x) { return std::exp(x); });
}
template <typename T> void Ln(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Ln", d, s, uint32_t(count), [](float x) { return std::log(x); });
}
template <typename T> void Abs(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Abs", d, s, uint32_t(count), [](float x) { return std::fabs(x); });
}
template <typename T> void Sqrt(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Sqrt", d, s, uint32_t(count), [](float x) { return std::sqrt(x); });
}
template <typename T> void Rsqrt(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Rsqrt", d, s, uint32_t(count), [](float x) { return 1.0f / std::sqrt(x); });
}
/* max(x, 0) that keeps NaN, like the instruction. */
template <typename T> void Relu(const LocalTensor<T> &d, const LocalTensor<T> &s, const int32_t count) {
    Model::Unary("Relu", d, s, uint32_t(count), [](float x) { return x < 0.0f ? 0.0f : x; });
}
template <typename T> void Adds(const LocalTensor<T> &d, const LocalTensor<T> &s, const T &scalar, const int32_t count) {
    float c = float(scalar);
    Model::Unary("Adds", d, s, uint32_t(count), [c](float x) { return x + c; });
}
template <typename T> void Muls(const LocalTensor<T> &d, const LocalTensor<T> &s, const T &scalar, const int32_t count) {
    float c = float(scalar);
    Model::Unary("Muls", d, s, uint32_t(count), [c](float x) { return x * c; });
}
template <typename T> void Maxs(const LocalTensor<T> &d, const LocalTensor<T> &s, const T &scalar, const int32_t count) {
    float c = float(scalar);
    Model::Unary("Maxs", d, s, uint32_t(count), [c](float x) { return x > c ? x : c; });
}
template <typename T> void Duplicate(const LocalTensor<T> &d, const T &scalar, const int32_t count) {
    d.CheckVector("Duplicate", uint32_t(count), true);
    T *p = d.Data();
    for (int32_t i = 0; i < count; i++) p[i] = scalar;
}

/* Type conversion: widening is exact (CAST_NONE); narrowing float rounds as `mode` says. */
template <typename D, typename S> void Cast(const LocalTensor<D> &dst, const LocalTensor<S> &src, const RoundMode &mode, const uint32_t count) {
    src.CheckVector("Cast", count, false);
    dst.CheckVector("Cast", count, true);
    constexpr bool widen = std::is_same<D, float>::value && (std::is_same<S, half>::value || std::is_same<S, bfloat16_t>::value);
    constexpr bool narrow = std::is_same<S, float>::value && (std::is_same<D, half>::value || std::is_same<D, bfloat16_t>::value);
    static_assert(widen || narrow, "Cast between these types is not modelled");
    const S *s = src.Data();
    D *d = dst.Data();
    if (widen) {
        if (mode != RoundMode::CAST_NONE) Fail(std::string("Cast ") + TypeName<S>() + " -> float takes CAST_NONE");
        for (uint32_t i = 0; i < count; i++) d[i] = D(float(s[i]));
        return;
    }
    if (mode != RoundMode::CAST_RINT && !(std::is_same<D, half>::value && mode == RoundMode::CAST_NONE))
        Fail(std::string("Cast float -> ") + TypeName<D>() + ": only round-to-nearest-even (CAST_RINT) is modelled");
    for (uint32_t i = 0; i < count; i++) d[i] = D(float(s[i]));
}

namespace Model {
/* Work elements ReduceSum/ReduceMax need for `count` elements (the documented formula for the
 * "first n elements" form: one partial result per repeat, rounded up to a whole block). */
template <typename T> uint32_t ReduceWorkElements(uint32_t count) {
    uint32_t perRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(T), perBlock = ONE_BLK_SIZE / sizeof(T);
    uint32_t repeats = (count + perRepeat - 1) / perRepeat;
    return (repeats + perBlock - 1) / perBlock * perBlock;
}
template <typename T> void CheckReduce(const char *op, const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, uint32_t count) {
    if (count == 0) Fail(std::string(op) + " of zero elements");
    src.CheckVector(op, count, false);
    uint32_t need = ReduceWorkElements<T>(count);
    if (work.GetSize() < need) Fail(std::string(op) + ": sharedTmpBuffer holds " + std::to_string(work.GetSize()) + " elements, " + std::to_string(need) + " needed");
    work.CheckVector(op, need, true);
    dst.CheckVector(op, 1, true);
}
} // namespace Model

/* Sum of the first `count` elements into dst[0]: a binary tree inside each 256-byte repeat,
 * the repeats' sums added in order (Atlas A2/A3). */
template <typename T> void ReduceSum(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t count) {
    Model::CheckReduce("ReduceSum", dst, src, work, uint32_t(count));
    const uint32_t perRepeat = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    const T *s = src.Data();
    float total = 0.0f;
    std::vector<float> lane(perRepeat);
    for (uint32_t at = 0; at < uint32_t(count); at += perRepeat) {
        for (uint32_t i = 0; i < perRepeat; i++) lane[i] = at + i < uint32_t(count) ? float(s[at + i]) : 0.0f;
        for (uint32_t width = perRepeat; width > 1; width /= 2)
            for (uint32_t i = 0; i < width / 2; i++) lane[i] = lane[2 * i] + lane[2 * i + 1];
        total = at == 0 ? lane[0] : total + lane[0];
    }
    dst.Data()[0] = T(total);
}
/* Maximum of the first `count` elements into dst[0] (calIndex is not modelled). */
template <typename T>
void ReduceMax(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &work, const int32_t count, bool calIndex = 0) {
    if (calIndex) Fail("ReduceMax: calIndex is not modelled");
    Model::CheckReduce("ReduceMax", dst, src, work, uint32_t(count));
    const T *s = src.Data();
    float m = float(s[0]);
    for (int32_t i = 1; i < count; i++) m = float(s[i]) > m ? float(s[i]) : m;
    dst.Data()[0] = T(m);
}

/* dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src. */
template <typename T>
void Gather(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<uint32_t> &srcOffset, const uint32_t srcBaseAddr, const uint32_t count) {
    src.CheckVector("Gather", 0, false);
    srcOffset.CheckVector("Gather", count, false);
    dst.CheckVector("Gather", count, true);
    const uint32_t *off = srcOffset.Data();
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.Data());
    uint64_t limit = uint64_t(src.GetSize()) * sizeof(T);
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t at = uint64_t(srcBaseAddr) + off[i];
        if (at % sizeof(T)) Fail("Gather: offset " + std::to_string(at) + " is not element aligned");
        if (at + sizeof(T) > limit) Fail("Gather: offset " + std::to_string(at) + " leaves the source's " + std::to_string(limit) + " bytes");
        std::memcpy(&out[i], s + at, sizeof(T));
    }
    if (Model::Overlaps(Model::ThisCore().scalarWrites, src.ByteOffset(), src.ByteOffset() + uint32_t(limit)))
        Fail("Gather reads UB bytes SetValue wrote without an S_V SetFlag/WaitFlag in between");
    std::memcpy(dst.Data(), out.data(), count * sizeof(T));
}

/* ---------------------------------------------------------------- the launcher */

namespace Model {
/* Runs `kernel` once per block 0..blockDim-1 on this thread, each block on a fresh UB of
 * ubBytes bytes. Returns 0, or 1 with the model's message in err. */
template <typename F> int32_t Launch(uint32_t blockDim, uint32_t ubBytes, F &&kernel, char *err, size_t errLen) {
    Core &core = ThisCore();
    try {
        if (blockDim == 0) Fail("launch with blockDim 0");
        for (uint32_t b = 0; b < blockDim; b++) {
            core.ub.assign(ubBytes, 0xFF);
            core.ubBytes = ubBytes;
            core.used = 0;
            core.blockIdx = b;
            core.blockNum = blockDim;
            core.pipeAlive = false;
            core.vecWrites.clear();
            core.scalarWrites.clear();
            core.flags.clear();
            kernel();
        }
        return 0;
    } catch (const std::exception &e) {
        core.pipeAlive = false;
        CurrentPipe() = nullptr;
        std::snprintf(err, errLen, "block %lld: %s", (long long)core.blockIdx, e.what());
        return 1;
    }
}
} // namespace Model

} // namespace AscendC

#endif
