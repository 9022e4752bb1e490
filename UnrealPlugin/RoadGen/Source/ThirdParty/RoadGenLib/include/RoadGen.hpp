// RoadGen C++ wrapper. SPDX-License-Identifier: MIT OR Apache-2.0
//
// Engine-independent C++17 marshalling over the C ABI in roadgen.h: what the Unreal plugin
// includes, and what tests/capi/driver.cpp exercises (compiled with -fno-exceptions -fno-rtti).
//
// Rules this header keeps:
// - No exceptions, no RTTI, no iostream; only <algorithm>, <cstddef>, <cstdint>, <cstring>,
//   <string>, <utility> and <vector>. std::string / std::vector stay on this side of the C ABI.
// - Nothing allocated by the library is freed here and nothing allocated here is freed by the
//   library: the only owner is roadgen::Network, which frees its handle exactly once.
// - Every call's outcome is a roadgen::Status (code and message); nothing aborts or throws.
// - The views (RgNetworkView and everything it points to) belong to the Network: they are valid
//   until that Network is generated again, reset, moved from or destroyed.
// - Lengths and positions are in the units and frame of the RgSettings used to generate
//   (Unreal: RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP; triangles come in Unreal's winding).

#ifndef ROADGEN_HPP
#define ROADGEN_HPP

#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "roadgen.h"

namespace roadgen {

/// A read-only array owned by the library (or by an Input): `size` values at `data`. Iterable
/// with range-for; `data` may be null when `size` is 0.
template <typename T>
struct Span {
    const T* data = nullptr;
    std::size_t size = 0;

    const T* begin() const { return data; }
    const T* end() const { return data + size; }
    bool empty() const { return size == 0; }
    /// The value at `i`; `i` must be less than `size`.
    const T& operator[](std::size_t i) const { return data[i]; }
};

/// The outcome of a call: a result code and, when it is not RgResult_Ok, the library's message.
struct Status {
    RgResult code = RgResult_Ok;
    std::string message;

    /// True when the call succeeded.
    bool ok() const { return code == RgResult_Ok; }
};

/// The name of a result code ("RgResult_Ok", ...), for logs; "RgResult_Unknown" for a value this
/// header does not know.
inline const char* ResultName(RgResult code) {
    switch (code) {
        case RgResult_Ok: return "RgResult_Ok";
        case RgResult_NullArgument: return "RgResult_NullArgument";
        case RgResult_InvalidArgument: return "RgResult_InvalidArgument";
        case RgResult_InvalidHandle: return "RgResult_InvalidHandle";
        case RgResult_InvalidRoad: return "RgResult_InvalidRoad";
        case RgResult_BufferTooSmall: return "RgResult_BufferTooSmall";
        case RgResult_Panic: return "RgResult_Panic";
    }
    return "RgResult_Unknown";
}

/// True when the linked library is the version this header was generated for. Check it once
/// before any other call (the plugin does so when its module starts).
inline bool CheckAbiVersion() { return rg_abi_version() == static_cast<std::uint32_t>(ROADGEN_ABI_VERSION); }

/// A library string as a std::string (UTF-8 bytes); empty for "none" (a null `ptr`).
inline std::string ToString(RgStr s) { return s.ptr != nullptr ? std::string(s.ptr, s.len) : std::string(); }

/// The message of the last failure: of `handle` when it is live, otherwise of the calling
/// thread (so it also reports failures of calls made with a dead or made-up handle). Empty when
/// there was none.
inline std::string LastError(RgHandle handle) {
    std::size_t needed = 0;
    if (rg_last_error(handle, nullptr, 0, &needed) == RgResult_Ok || needed <= 1) {
        return std::string();
    }
    // The message may change between the calls (another thread failing a call on the same
    // handle): retry with the new size a few times.
    for (int attempt = 0; attempt < 4; ++attempt) {
        std::vector<char> buffer(needed);
        std::size_t full = 0;
        const RgResult r = rg_last_error(handle, buffer.data(), buffer.size(), &full);
        if (r == RgResult_Ok) {
            return full > 0 ? std::string(buffer.data(), full - 1) : std::string();
        }
        if (r != RgResult_BufferTooSmall || full <= needed) {
            return std::string(buffer.data());
        }
        needed = full;
    }
    return std::string();
}

/// The default settings in `units` (RG_UNITS_*) and `frame` (RG_FRAME_*), meshes on. With an
/// unknown code the result is zero apart from the codes, so that Network::Generate refuses it
/// with RgResult_InvalidArgument.
inline RgSettings Settings(std::uint32_t units, std::uint32_t frame) {
    RgSettings s;
    std::memset(&s, 0, sizeof s);
    if (rg_settings_default(units, frame, &s) != RgResult_Ok) {
        std::memset(&s, 0, sizeof s);
        s.units = units;
        s.frame = frame;
    }
    return s;
}

/// A spline point at (x, y, z) with both tangents `tangent` and the given RG_POINT_* type.
inline RgSplinePoint Point(double x, double y, double z, RgVec3 tangent, std::uint32_t point_type) {
    RgSplinePoint p;
    std::memset(&p, 0, sizeof p);
    p.location = RgVec3{x, y, z};
    p.arrive_tangent = tangent;
    p.leave_tangent = tangent;
    p.point_type = point_type;
    return p;
}

/// A linear spline point at (x, y, z) (tangents zero).
inline RgSplinePoint Point(double x, double y, double z) { return Point(x, y, z, RgVec3{0.0, 0.0, 0.0}, RG_POINT_LINEAR); }

/// The roads of one generation: owns every id and point array and hands out the RgSpline array
/// that points into them.
class Input {
public:
    Input() = default;
    // Not copyable: the RgSpline array points into this object's own buffers.
    Input(const Input&) = delete;
    Input& operator=(const Input&) = delete;
    /// Moving keeps every buffer, so the splines stay valid in the new owner.
    Input(Input&&) noexcept = default;
    /// Moving keeps every buffer, so the splines stay valid in the new owner.
    Input& operator=(Input&&) noexcept = default;

    /// Adds a road and returns its index. `id` is UTF-8 (ids should be unique), `width` the
    /// carriageway width and every length in the units of the settings it is generated with.
    std::size_t AddSpline(const std::string& id, std::vector<RgSplinePoint> points, double width, std::int32_t layer = 0,
                          bool closed = false, bool auto_tangents = false) {
        ids_.emplace_back(id.begin(), id.end());
        points_.push_back(std::move(points));
        RgSpline s;
        std::memset(&s, 0, sizeof s);
        // The id and points live in their own std::vectors: moving a std::vector (when the outer
        // vectors grow) keeps its buffer, so these pointers stay valid for the Input's life.
        s.id = ids_.back().empty() ? nullptr : ids_.back().data();
        s.id_len = ids_.back().size();
        s.points = points_.back().empty() ? nullptr : points_.back().data();
        s.point_count = points_.back().size();
        s.width = width;
        s.layer = layer;
        s.closed = closed ? 1 : 0;
        s.auto_tangents = auto_tangents ? 1 : 0;
        splines_.push_back(s);
        return splines_.size() - 1;
    }

    /// Road `index` gets its own curb height; false when there is no such road.
    bool SetCurbHeight(std::size_t index, double v) { return Override(index, RG_PROFILE_CURB_HEIGHT, &RgProfile::curb_height, v); }
    /// Road `index` gets its own curb width; false when there is no such road.
    bool SetCurbWidth(std::size_t index, double v) { return Override(index, RG_PROFILE_CURB_WIDTH, &RgProfile::curb_width, v); }
    /// Road `index` gets its own left sidewalk width (left looking along the road, in the frame
    /// of the settings); false when there is no such road.
    bool SetSidewalkLeft(std::size_t index, double v) { return Override(index, RG_PROFILE_SIDEWALK_LEFT, &RgProfile::sidewalk_left, v); }
    /// Road `index` gets its own right sidewalk width; false when there is no such road.
    bool SetSidewalkRight(std::size_t index, double v) { return Override(index, RG_PROFILE_SIDEWALK_RIGHT, &RgProfile::sidewalk_right, v); }

    /// Road `index` gets its own junction corner radius (a corner between two roads takes the
    /// smaller of theirs); false when there is no such road.
    bool SetCornerRadius(std::size_t index, double v) {
        if (index >= splines_.size()) {
            return false;
        }
        splines_[index].profile_mask |= RG_PROFILE_CORNER_RADIUS;
        splines_[index].corner_radius = v;
        return true;
    }

    /// The splines, `Count()` of them (null when there are none). Valid until the next
    /// AddSpline / Set* call or the Input's destruction.
    const RgSpline* Splines() const { return splines_.empty() ? nullptr : splines_.data(); }
    /// Number of splines.
    std::size_t Count() const { return splines_.size(); }

private:
    bool Override(std::size_t index, std::uint32_t bit, double RgProfile::*field, double v) {
        if (index >= splines_.size()) {
            return false;
        }
        splines_[index].profile_mask |= bit;
        splines_[index].profile.*field = v;
        return true;
    }

    std::vector<std::vector<char>> ids_;
    std::vector<std::vector<RgSplinePoint>> points_;
    std::vector<RgSpline> splines_;
};

/// The owner of one network handle: move-only; frees the handle exactly once.
class Network {
public:
    /// Makes a new, empty network (valid() is false only if the library refused, see LastError).
    Network() {
        RgHandle h = 0;
        if (rg_network_new(&h) == RgResult_Ok) {
            handle_ = h;
        }
    }
    /// Frees the handle and everything it owns.
    ~Network() { Reset(); }

    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    /// Takes `other`'s handle; `other` is left empty (valid() false).
    Network(Network&& other) noexcept : handle_(other.handle_) { other.handle_ = 0; }
    /// Frees this network's handle and takes `other`'s; `other` is left empty.
    Network& operator=(Network&& other) noexcept {
        if (this != &other) {
            Reset();
            handle_ = other.handle_;
            other.handle_ = 0;
        }
        return *this;
    }

    /// True while this object owns a handle.
    bool valid() const { return handle_ != 0; }
    /// The raw handle (0 when empty), for calls this header does not wrap. Do not free it.
    RgHandle handle() const { return handle_; }

    /// Frees the handle now (views die with it); the object becomes empty.
    void Reset() {
        if (handle_ != 0) {
            rg_network_free(handle_);
            handle_ = 0;
        }
    }

    /// Builds the network of `input` with `settings`, replacing what the handle held (earlier
    /// views become invalid). Bad roads become diagnostics unless `settings.strict` is set, in
    /// which case the call fails with RgResult_InvalidRoad and a message naming the road.
    Status Generate(const Input& input, const RgSettings& settings) {
        return Generate(input.Splines(), input.Count(), settings);
    }

    /// Builds from a raw spline array (see Generate above); `splines` may be null when `count`
    /// is 0.
    Status Generate(const RgSpline* splines, std::size_t count, const RgSettings& settings) {
        return Check(rg_generate(handle_, splines, count, &settings));
    }

    /// Everything the last successful Generate produced (all counts 0 before one, after a failed
    /// one, or when the object is empty).
    RgNetworkView View() const {
        RgNetworkView v;
        std::memset(&v, 0, sizeof v);
        if (rg_network_view(handle_, &v) != RgResult_Ok) {
            std::memset(&v, 0, sizeof v);
        }
        return v;
    }

    /// Changes the network of the last Generate, with its settings: every spline of `changed`
    /// is added, or replaces the road with its id; the roads whose ids are in `removed` are
    /// removed. Only what the edits reach is built again, and the result is exactly what
    /// Generate gives for the edited input. Earlier views become invalid; Changes() lists what
    /// changed (the meshes to replace are in its `remeshed` list). A failed Update leaves the
    /// network as it was.
    Status Update(const Input& changed, const std::vector<std::string>& removed = {}) {
        std::vector<RgStr> ids;
        ids.reserve(removed.size());
        for (const std::string& id : removed) {
            RgStr s;
            s.ptr = id.data();
            s.len = id.size();
            ids.push_back(s);
        }
        return Update(changed.Splines(), changed.Count(), ids.empty() ? nullptr : ids.data(), ids.size());
    }

    /// Update from raw arrays (see above); either may be null when its count is 0.
    Status Update(const RgSpline* splines, std::size_t count, const RgStr* removed, std::size_t removed_count) {
        return Check(rg_update(handle_, splines, count, removed, removed_count, nullptr));
    }

    /// What the last successful Update changed (all lists empty before one, and after a
    /// Generate). Valid until the next Generate or Update, or the handle's end.
    RgChangesView Changes() const {
        RgChangesView c;
        std::memset(&c, 0, sizeof c);
        if (rg_changes_view(handle_, &c) != RgResult_Ok) {
            std::memset(&c, 0, sizeof c);
        }
        return c;
    }

    /// The message of this handle's last failure (empty when the last Generate succeeded).
    std::string LastError() const { return roadgen::LastError(handle_); }

private:
    Status Check(RgResult code) const {
        Status s;
        s.code = code;
        if (code != RgResult_Ok) {
            s.message = LastError();
        }
        return s;
    }

    RgHandle handle_ = 0;
};

/// What one Follower::Sync did.
struct SyncReport {
    /// Generate ran (the first Sync, new settings, a road id given twice, or after a failure):
    /// every feature and mesh of the view is new.
    bool generated = false;
    /// Roads handed to the library as added or changed (all of them when `generated`).
    std::size_t upserted = 0;
    /// Road ids handed to Update as removed.
    std::size_t removed = 0;

    /// True when the network did not change (nothing to redraw).
    bool unchanged() const { return !generated && upserted == 0 && removed == 0; }
};

/// Follows a set of roads that changes over time, as an editor's splines do while one is being
/// dragged: each Sync takes the whole current input and hands the library only what differs
/// from the last Sync (roads whose id is new or whose data changed, and ids that are gone) as
/// one Update, so that only the junctions, road pieces, blocks and meshes they reach are built
/// again. The network is always exactly what Generate gives for the input of the last
/// successful Sync. Roads are matched by id; their data (points, tangents, width, layer,
/// closed, profile) is compared bit for bit.
class Follower {
public:
    /// Brings the network up to `input` built with `settings` (see the class comment). Generate
    /// runs instead of Update on the first call, when `settings` differ from the last call's,
    /// and while `input` gives some id twice (the library keeps the first road of an id; an
    /// Update could not say which). A failed call leaves the network as it was and the next
    /// call generates again.
    Status Sync(const Input& input, const RgSettings& settings, SyncReport* report = nullptr) {
        SyncReport r;
        std::vector<Entry> now;
        now.reserve(input.Count());
        for (std::size_t i = 0; i < input.Count(); ++i) {
            const RgSpline& s = input.Splines()[i];
            now.push_back(Entry{std::string(s.id != nullptr ? s.id : "", s.id != nullptr ? s.id_len : 0), Fingerprint(s), i});
        }
        std::sort(now.begin(), now.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
        bool repeated = false;
        for (std::size_t i = 1; i < now.size(); ++i) {
            repeated = repeated || now[i].id == now[i - 1].id;
        }
        const std::string key = Fingerprint(settings);
        if (!synced_ || repeated || key != settings_key_) {
            synced_ = false;
            Status st = net_.Generate(input, settings);
            if (st.ok()) {
                r.generated = true;
                r.upserted = input.Count();
                last_ = std::move(now);
                settings_key_ = key;
                // With an id given twice the next Sync cannot tell which road changed.
                synced_ = !repeated;
            }
            if (report != nullptr) {
                *report = r;
            }
            return st;
        }
        // Both lists are sorted by id: walk them together.
        std::vector<RgSpline> changed;
        std::vector<RgStr> gone;
        std::size_t a = 0, b = 0;
        while (a < last_.size() || b < now.size()) {
            if (b == now.size() || (a < last_.size() && last_[a].id < now[b].id)) {
                gone.push_back(RgStr{last_[a].id.data(), last_[a].id.size()});
                ++a;
            } else if (a == last_.size() || now[b].id < last_[a].id) {
                changed.push_back(input.Splines()[now[b].index]);
                ++b;
            } else {
                if (last_[a].data != now[b].data) {
                    changed.push_back(input.Splines()[now[b].index]);
                }
                ++a;
                ++b;
            }
        }
        r.upserted = changed.size();
        r.removed = gone.size();
        Status st;
        if (!r.unchanged()) {
            st = net_.Update(changed.empty() ? nullptr : changed.data(), changed.size(), gone.empty() ? nullptr : gone.data(),
                             gone.size());
            if (!st.ok()) {
                synced_ = false;
                r = SyncReport();
            }
        }
        // `gone` points into `last_`: replaced only now.
        if (st.ok()) {
            last_ = std::move(now);
        }
        if (report != nullptr) {
            *report = r;
        }
        return st;
    }

    /// The followed network: its View() and, after a Sync that updated it, its Changes() (the
    /// meshes to replace are in `remeshed`, the features gone in `removed`).
    const Network& network() const { return net_; }

    /// Forgets everything: the next Sync generates.
    void Reset() {
        net_ = Network();
        last_.clear();
        settings_key_.clear();
        synced_ = false;
    }

private:
    struct Entry {
        std::string id;
        std::string data;
        std::size_t index;
    };

    template <typename T>
    static void Put(std::string& out, const T& v) {
        out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    static void Put(std::string& out, const RgVec3& v) {
        Put(out, v.x);
        Put(out, v.y);
        Put(out, v.z);
    }
    static void Put(std::string& out, const RgProfile& p) {
        Put(out, p.curb_height);
        Put(out, p.curb_width);
        Put(out, p.sidewalk_left);
        Put(out, p.sidewalk_right);
    }

    /// A road's data, field by field (no padding bytes), bit for bit.
    static std::string Fingerprint(const RgSpline& s) {
        std::string out;
        out.reserve(64 + s.point_count * 80);
        Put(out, s.width);
        Put(out, s.layer);
        Put(out, s.closed);
        Put(out, s.auto_tangents);
        Put(out, s.profile_mask);
        Put(out, s.profile);
        Put(out, s.corner_radius);
        Put(out, s.point_count);
        for (std::size_t i = 0; s.points != nullptr && i < s.point_count; ++i) {
            const RgSplinePoint& p = s.points[i];
            Put(out, p.location);
            Put(out, p.arrive_tangent);
            Put(out, p.leave_tangent);
            Put(out, p.point_type);
        }
        return out;
    }

    /// The settings, field by field, bit for bit.
    static std::string Fingerprint(const RgSettings& s) {
        std::string out;
        Put(out, s.units);
        Put(out, s.frame);
        Put(out, s.tolerance);
        Put(out, s.snap_distance);
        Put(out, s.clearance);
        Put(out, s.corner_radius);
        Put(out, s.merge_distance);
        Put(out, s.min_block_area);
        Put(out, s.max_coordinate);
        Put(out, s.profile);
        Put(out, s.strict);
        Put(out, s.build_meshes);
        return out;
    }

    Network net_;
    /// The roads of the last successful Sync, sorted by id.
    std::vector<Entry> last_;
    std::string settings_key_;
    /// The network is the Generate or Update of `last_` with the settings of `settings_key_`.
    bool synced_ = false;
};

// Iteration over a view: each returns a Span over library-owned memory.

/// The junctions of a view.
inline Span<RgJunction> Junctions(const RgNetworkView& v) { return {v.junctions, v.junction_count}; }
/// The road pieces of a view.
inline Span<RgRoadPiece> Pieces(const RgNetworkView& v) { return {v.pieces, v.piece_count}; }
/// The blocks of a view.
inline Span<RgBlock> Blocks(const RgNetworkView& v) { return {v.blocks, v.block_count}; }
/// The diagnostics of a view.
inline Span<RgDiagnostic> Diagnostics(const RgNetworkView& v) { return {v.diagnostics, v.diagnostic_count}; }
/// The meshes of a view.
inline Span<RgMesh> Meshes(const RgNetworkView& v) { return {v.meshes, v.mesh_count}; }
/// Features an Update added.
inline Span<RgFeatureRef> Added(const RgChangesView& c) { return {c.added, c.added_count}; }
/// Features an Update changed.
inline Span<RgFeatureRef> Changed(const RgChangesView& c) { return {c.changed, c.changed_count}; }
/// Features an Update removed (their meshes are gone).
inline Span<RgFeatureRef> Removed(const RgChangesView& c) { return {c.removed, c.removed_count}; }
/// Features whose meshes an Update built again: the meshes a host replaces.
inline Span<RgFeatureRef> Remeshed(const RgChangesView& c) { return {c.remeshed, c.remeshed_count}; }
/// The ids of the input roads that meet at a junction.
inline Span<RgStr> Roads(const RgJunction& j) { return {j.roads, j.road_count}; }
/// A road piece's centerline.
inline Span<RgVec3> Centerline(const RgRoadPiece& p) { return {p.centerline, p.centerline_count}; }
/// A block's lots.
inline Span<RgPolygon> Lots(const RgBlock& b) { return {b.lots, b.lot_count}; }
/// A polygon's rings: the outer ring first, then the holes.
inline Span<RgRing> Rings(const RgPolygon& p) { return {p.rings, p.ring_count}; }
/// A ring's points (stored open: the first point is not repeated).
inline Span<RgVec2> Points(const RgRing& r) { return {r.points, r.point_count}; }

/// The shoelace area of a ring in the caller's coordinates (positive for an outer ring,
/// negative for a hole).
inline double SignedArea(const RgRing& r) {
    double twice = 0.0;
    for (std::size_t i = 0; i < r.point_count; ++i) {
        const RgVec2 a = r.points[i];
        const RgVec2 b = r.points[(i + 1) % r.point_count];
        twice += a.x * b.y - b.x * a.y;
    }
    return twice / 2.0;
}

// A mesh's arrays, with the number of values (not vertices) each holds.

/// Positions: x, y, z of each vertex (3 * vertex_count doubles).
inline Span<double> Positions(const RgMesh& m) { return {m.positions, 3 * m.vertex_count}; }
/// Unit normals: x, y, z of each vertex (3 * vertex_count floats).
inline Span<float> Normals(const RgMesh& m) { return {m.normals, 3 * m.vertex_count}; }
/// Texture coordinates: u, v of each vertex (2 * vertex_count floats), in metres.
inline Span<float> Uvs(const RgMesh& m) { return {m.uvs, 2 * m.vertex_count}; }
/// Vertex indices: a, b, c of each triangle (3 * triangle_count), in the caller's winding.
inline Span<std::uint32_t> Indices(const RgMesh& m) { return {m.indices, 3 * m.triangle_count}; }
/// The RG_SLOT_* material slot of each triangle (triangle_count values).
inline Span<std::uint32_t> MaterialSlots(const RgMesh& m) { return {m.material_slots, m.triangle_count}; }

}  // namespace roadgen

#endif  // ROADGEN_HPP
