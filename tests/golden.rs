//! Golden cases drawn for the purpose (tests/data/golden, written by scripts/make_golden.py,
//! except `layers_meet_at_ends`, `small_face` and `tight_dual_carriageway`, written by hand):
//! every invariant on each, and what each case is about.

mod common;

use common::{build_checked, load};
use roadgen::core::{DiagnosticCode, Network, Settings};

fn case(name: &str) -> Network {
    let input = load(&format!("golden/{name}.roads.json"));
    build_checked(name, &input, &Settings::default()).0
}

fn has(net: &Network, code: DiagnosticCode) -> bool {
    net.diagnostics.iter().any(|d| d.code == code)
}

/// Degrees of the junctions, sorted.
fn degrees(net: &Network) -> Vec<usize> {
    let mut d: Vec<usize> = net.junctions.iter().map(|j| j.degree).collect();
    d.sort_unstable();
    d
}

/// Each junction's degree is the number of road-piece ends that meet it, and its outline was
/// built from curbs and fillets (not the fallback union).
fn consistent(name: &str, net: &Network) {
    degrees_match_piece_ends(name, net);
    assert!(!has(net, DiagnosticCode::JunctionFallback), "{name}: {:?}", net.diagnostics);
}

/// Each junction's degree is the number of road-piece ends that meet it.
fn degrees_match_piece_ends(name: &str, net: &Network) {
    for j in &net.junctions {
        let ends = net.pieces.iter().filter(|p| p.from.as_deref() == Some(&j.id)).count()
            + net.pieces.iter().filter(|p| p.to.as_deref() == Some(&j.id)).count();
        assert_eq!(ends, j.degree, "{name}: junction {} has degree {} but {} piece ends", j.id, j.degree, ends);
    }
}

fn area(net: &Network, id: usize) -> f64 {
    roadgen::core::validate::polygon_area(&net.junctions[id].polygon)
}

#[test]
fn x_crossing() {
    let n = case("x");
    consistent("x", &n);
    assert_eq!(degrees(&n), vec![4]);
    assert_eq!(n.pieces.len(), 4);
    assert!(n.blocks.is_empty());
    // A 7 m square, four 7 m x 6 m arm stubs (set back 3.5 + 6 m) and four fillet corners of
    // radius 6 (r² - πr²/4 each).
    let r: f64 = 6.0;
    let expected = 49.0 + 4.0 * 7.0 * r + 4.0 * (r * r - std::f64::consts::PI * r * r / 4.0);
    assert!((area(&n, 0) - expected).abs() < 0.01 * expected, "area {} vs {expected}", area(&n, 0));
    for p in &n.pieces {
        assert!((p.end - p.start - (150.0 - 9.5)).abs() < 1e-6, "piece {} runs {}..{}", p.id, p.start, p.end);
    }
}

#[test]
fn t_junction() {
    let n = case("t");
    consistent("t", &n);
    assert_eq!(degrees(&n), vec![3]);
    assert_eq!(n.junctions[0].roads, vec!["main", "side"]);
    assert_eq!(n.pieces.len(), 3);
}

#[test]
fn t_within_snap_distance() {
    let n = case("t_snap");
    consistent("t_snap", &n);
    assert_eq!(degrees(&n), vec![3]);
    assert!(has(&n, DiagnosticCode::EndSnapped));
}

#[test]
fn overshoot_is_a_t() {
    let n = case("t_overshoot");
    consistent("t_overshoot", &n);
    assert_eq!(degrees(&n), vec![3]);
    assert_eq!(n.pieces.len(), 3);
    assert!(has(&n, DiagnosticCode::OvershootTrimmed));
    assert!(!has(&n, DiagnosticCode::NearMiss));
}

#[test]
fn y_five_and_eight_way() {
    for (name, deg) in [("y", 3), ("five_way", 5), ("eight_way", 8)] {
        let n = case(name);
        consistent(name, &n);
        assert_eq!(degrees(&n), vec![deg], "{name}");
        assert_eq!(n.pieces.len(), deg, "{name}");
        assert_eq!(n.junctions[0].roads.len(), if name == "eight_way" { 4 } else { deg }, "{name}: a road was lost");
    }
}

#[test]
fn acute_merges() {
    for (name, deg) in [("merge_10", 10.0_f64), ("merge_5", 5.0)] {
        let n = case(name);
        consistent(name, &n);
        assert_eq!(degrees(&n), vec![3], "{name}");
        // The branch's curb only leaves the main road's curb where they are 7 m apart sideways,
        // so its piece starts at least that far out.
        let branch = n.pieces.iter().find(|p| p.road == "branch").unwrap();
        let apart = 7.0 / deg.to_radians().sin();
        let len = if name == "merge_10" { 300.0 } else { 400.0 };
        assert!(
            len - branch.end > apart,
            "{name}: branch piece ends {} from the merge, curbs part at {apart}",
            len - branch.end
        );
    }
}

#[test]
fn unequal_widths() {
    let n = case("unequal_widths");
    consistent("unequal_widths", &n);
    assert_eq!(degrees(&n), vec![6]);
    assert_eq!(n.junctions[0].roads, vec!["medium", "narrow", "wide"]);
}

#[test]
fn closed_loop_crossing_a_road() {
    let n = case("loop_crossing");
    consistent("loop_crossing", &n);
    assert_eq!(degrees(&n), vec![4, 4]);
    assert_eq!(n.pieces.len(), 5);
    // The road cuts the disc inside the loop into two blocks.
    assert_eq!(n.blocks.len(), 2);
    // The loop's two pieces join across its seam: together they run all the way around.
    let ring: f64 = n.pieces.iter().filter(|p| p.road == "ring").map(|p| p.end - p.start).sum();
    let circumference = 2.0 * 80.0 * 48.0 * (std::f64::consts::PI / 48.0).sin();
    assert!(ring < circumference && ring > circumference - 2.0 * 2.0 * 30.0, "{ring} of {circumference}");
}

#[test]
fn dead_end_cuts_a_notch() {
    let n = case("dead_end_in_block");
    consistent("dead_end_in_block", &n);
    assert_eq!(n.blocks.len(), 1);
    let b = &n.blocks[0];
    assert!(b.polygon.holes.is_empty());
    // The dead end (about 115 m long, 7 m wide) is cut out of the 193 m square.
    let full = 193.0 * 193.0;
    assert!(b.area < full - 0.9 * 115.0 * 7.0, "block area {}", b.area);
    let stub = n.pieces.iter().find(|p| p.road == "culdesac").unwrap();
    assert!(stub.from.is_some() && stub.to.is_none());
}

#[test]
fn network_inside_a_block_is_a_hole() {
    let n = case("hole");
    consistent("hole", &n);
    assert_eq!(n.blocks.len(), 2);
    let outer = n.blocks.iter().find(|b| !b.polygon.holes.is_empty()).expect("a block with a hole");
    assert_eq!(outer.polygon.holes.len(), 1);
    let inner = n.blocks.iter().find(|b| b.polygon.holes.is_empty()).unwrap();
    // The inner square's block lies in the outer block's hole.
    let p = inner.polygon.exterior[0];
    assert!(roadgen::core::validate::point_in_ring(p, &outer.polygon.exterior));
    assert!(inner.area < 93.0 * 93.0 && inner.area > 0.9 * 93.0 * 93.0);
}

#[test]
fn junctions_closer_than_their_setbacks_merge() {
    let n = case("close_junctions");
    consistent("close_junctions", &n);
    assert_eq!(degrees(&n), vec![6]);
    assert!(has(&n, DiagnosticCode::JunctionsMerged));
}

#[test]
fn different_layers_do_not_meet() {
    let n = case("layers");
    assert!(n.junctions.is_empty());
    assert_eq!(n.pieces.len(), 2);
    assert!(has(&n, DiagnosticCode::GradeSeparated));
}

#[test]
fn road_touching_another_roads_end() {
    let n = case("end_to_end");
    consistent("end_to_end", &n);
    assert_eq!(degrees(&n), vec![2]);
    assert_eq!(n.junctions[0].roads, vec!["first", "second"]);
}

#[test]
fn spline_roads() {
    let n = case("spline_curves");
    // The curves cross the straight road at shallow angles right next to each other; their
    // curbs cross behind the arms' starts, so the outline may come from the union of the
    // arms (a diagnostic says so). Degrees and roads must hold all the same.
    degrees_match_piece_ends("spline_curves", &n);
    // The two curves cross each other once on the left (4 arms), and cross the straight road
    // next to each other at the center, where their junctions merge (6 arms).
    assert_eq!(degrees(&n), vec![4, 6]);
    let center = n.junctions.iter().find(|j| j.degree == 6).unwrap();
    assert_eq!(center.roads, vec!["bow", "straight", "wave"]);
    assert_eq!(n.blocks.len(), 1);
}

#[test]
fn straight_continuation_with_a_change_of_width() {
    let n = case("straight_continuation");
    consistent("straight_continuation", &n);
    assert_eq!(degrees(&n), vec![2]);
    // Both mouths are set back half the wider road; the surface between them tapers from 7 m to
    // 10 m: a trapezoid of 10 m length.
    let expected = 0.5 * (7.0 + 10.0) * 10.0;
    assert!((area(&n, 0) - expected).abs() < 1e-6, "area {}", area(&n, 0));
}

#[test]
fn radius_reduced_where_it_does_not_fit() {
    let n = case("short_arm");
    assert_eq!(degrees(&n), vec![3]);
    assert!(has(&n, DiagnosticCode::RadiusReduced), "{:?}", n.diagnostics);
    // The 7 m stub is all junction: the fillets use it up to its end.
    assert!(n.pieces.iter().all(|p| p.road == "main"));
}

#[test]
fn near_miss_is_reported_not_joined() {
    let n = case("near_miss");
    assert!(n.junctions.is_empty());
    assert_eq!(n.pieces.len(), 2);
    let d = n.diagnostics.iter().find(|d| d.code == DiagnosticCode::NearMiss).expect("a near_miss diagnostic");
    assert_eq!(d.road.as_deref(), Some("side"));
    assert!((d.position.x - 0.0).abs() < 1e-9 && (d.position.y - 5.5).abs() < 1e-9);
}

#[test]
fn heights_decide_grade_separation() {
    let n = case("heights");
    // The overpass is 8 m above the ground road (more than the 3 m clearance): no junction;
    // the ramp is 1 m above it: a junction.
    assert_eq!(degrees(&n), vec![4]);
    assert_eq!(n.junctions[0].roads, vec!["ground", "ramp"]);
    assert!(has(&n, DiagnosticCode::GradeSeparated));
}

#[test]
fn point_cloud_input() {
    let input = load("pointcloud/crossing.json");
    let (n, _) = build_checked("pointcloud", &input, &Settings::default());
    consistent("pointcloud", &n);
    assert_eq!(degrees(&n), vec![3, 4]);
    assert!(n.pieces.iter().all(|p| (p.width - 7.0).abs() < 1e-12), "widths are read in centimetres");
}

#[test]
fn per_road_profiles_reach_the_blocks() {
    let n = case("profiles");
    // Every block takes the profile of the road that names it; its lots lie inside it.
    assert!(!n.blocks.is_empty());
    for b in &n.blocks {
        for lot in &b.lots {
            for p in &lot.exterior {
                assert!(roadgen::core::validate::point_in_ring(*p, &b.polygon.exterior), "{}: lot outside", b.id);
            }
        }
        let band = b.profile.curb_width + b.profile.sidewalk_left;
        let lots: f64 = b.lots.iter().map(roadgen::core::validate::polygon_area).sum();
        assert!(lots < b.area, "{}: the sidewalk band takes no area", b.id);
        assert!(band >= 0.3, "{}", b.id);
    }
    let lane = n.pieces.iter().find(|p| p.road == "lane").unwrap();
    assert_eq!(lane.profile.sidewalk_left, 0.0);
    assert_eq!(lane.profile.curb_height, 0.25);
    let boulevard = n.pieces.iter().find(|p| p.road == "boulevard").unwrap();
    assert_eq!(boulevard.profile.sidewalk_right, 4.5);
    // The two blocks between `plain` and `lane`, on either side of the boulevard, are mirror
    // images. Along each side a block has the band of the road beside it (curb top 0.3 m plus
    // that road's sidewalk), and round its corners bands between the two roads': its lot's
    // outline crosses the block's middle lines at the curbs (west and east 7 m wide, the
    // boulevard 9 m, plain 7 m, lane 5 m) moved in by those bands.
    let by = |prefix: &str| n.blocks.iter().find(|b| b.id.starts_with(prefix)).expect(prefix);
    let (east, west) = (by("b/boulevard/"), by("b/west/"));
    assert!((east.area - west.area).abs() < 1e-6);
    for (b, mirror) in [(west, 1.0), (east, -1.0)] {
        let bands: Vec<f64> = b.bands.iter().flatten().copied().collect();
        assert_eq!(bands.len(), b.polygon.exterior.len(), "{}: one band per vertex", b.id);
        for want in [0.3, 2.3, 4.8] {
            assert!(bands.iter().any(|x| (x - want).abs() < 1e-12), "{}: no band of {want} m", b.id);
        }
        assert!(bands.iter().all(|x| (0.3..=4.8).contains(x)), "{}: {bands:?}", b.id);
        assert_eq!(b.lots.len(), 1, "{}", b.id);
        let ring: Vec<(f64, f64)> = b.lots[0].exterior.iter().map(|p| (mirror * p.x, p.y)).collect();
        let (xs, ys) = (crossings(&ring, 50.0, false), crossings(&ring, -60.0, true));
        let want = ([-116.5 + 2.3, -4.5 - 4.8], [3.5 + 2.3, 97.5 - 0.3]);
        for (got, want) in [(xs, want.0), (ys, want.1)] {
            assert_eq!(got.len(), 2, "{}: {got:?}", b.id);
            assert!(
                (got[0] - want[0]).abs() < 1e-3 && (got[1] - want[1]).abs() < 1e-3,
                "{}: {got:?}, want {want:?}",
                b.id
            );
        }
    }
}

/// Where a ring crosses the line y = `at` (or x = `at` when `vertical`): the other coordinate
/// of each crossing, in order.
fn crossings(ring: &[(f64, f64)], at: f64, vertical: bool) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 0..ring.len() {
        let (mut a, mut b) = (ring[i], ring[(i + 1) % ring.len()]);
        if vertical {
            (a, b) = ((a.1, a.0), (b.1, b.0));
        }
        if (a.1 - at) * (b.1 - at) < 0.0 {
            out.push(a.0 + (b.0 - a.0) * (at - a.1) / (b.1 - a.1));
        }
    }
    out.sort_by(f64::total_cmp);
    out
}

/// The junction whose surface holds the point (x, y), if any.
fn junction_at(net: &Network, x: f64, y: f64) -> Option<&roadgen::core::Junction> {
    let p = roadgen::core::Point::new(x, y);
    net.junctions.iter().find(|j| roadgen::core::validate::point_in_ring(p, &j.polygon.exterior))
}

/// The blocks whose outline holds the point (x, y) (inside the exterior, outside every hole).
fn blocks_at(net: &Network, x: f64, y: f64) -> Vec<&roadgen::core::Block> {
    let p = roadgen::core::Point::new(x, y);
    let inside = |r: &[roadgen::core::Point]| roadgen::core::validate::point_in_ring(p, r);
    net.blocks.iter().filter(|b| inside(&b.polygon.exterior) && !b.polygon.holes.iter().any(|h| inside(h))).collect()
}

/// Whether any vertex of a block's outline lies in the box [x0, x1] × [y0, y1].
fn block_vertex_in(net: &Network, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> bool {
    net.blocks.iter().any(|b| {
        std::iter::once(&b.polygon.exterior)
            .chain(&b.polygon.holes)
            .flatten()
            .any(|p| p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1)
    })
}

/// A 7 m road's corner between two curbs at a right angle, rounded by the default 6 m fillet,
/// takes r² - πr²/4 out of a face.
fn fillet_loss() -> f64 {
    let r: f64 = 6.0;
    r * r - std::f64::consts::PI * r * r / 4.0
}

#[test]
fn roads_sharing_an_end_meet_whatever_their_layer() {
    let n = case("layers_meet_at_ends");
    consistent("layers_meet_at_ends", &n);
    // `ground` and `side` (layer 0) end where `ramp` (layer 1) starts: one junction of three arms.
    let origin = junction_at(&n, 0.0, 0.0).expect("a junction where the three roads end");
    assert_eq!(origin.roads, vec!["ground", "ramp", "side"]);
    assert_eq!(origin.degree, 3);
    // `spur` (layer 2) ends on the middle of `ground`: a T, at the end of one of the two roads.
    let t = junction_at(&n, -80.0, 0.0).expect("a junction where the spur ends on ground");
    assert_eq!(t.roads, vec!["ground", "spur"]);
    assert_eq!(t.degree, 3);
    // `under` (layer 0) crosses `ramp` (layer 1) in the middle of both: a bridge, no junction.
    assert_eq!(n.junctions.len(), 2, "{:?}", n.junctions.iter().map(|j| &j.id).collect::<Vec<_>>());
    assert!(junction_at(&n, 80.0, 0.0).is_none(), "a junction at the bridge");
    assert!(n.junctions.iter().all(|j| !j.roads.contains(&"under".to_string())));
    let grade: Vec<_> = n.diagnostics.iter().filter(|d| d.code == DiagnosticCode::GradeSeparated).collect();
    assert_eq!(grade.len(), 1, "only the mid-road crossing is grade-separated: {grade:?}");
    assert!((grade[0].position.x - 80.0).abs() < 1e-9 && grade[0].position.y.abs() < 1e-9, "{:?}", grade[0]);
    // Neither road is cut at the bridge: `under` is one piece without junctions, `ramp` one
    // piece from the junction at its start to its dead end.
    let pieces = |road: &str| n.pieces.iter().filter(|p| p.road == road).collect::<Vec<_>>();
    let under = pieces("under");
    assert_eq!(under.len(), 1);
    assert!(under[0].from.is_none() && under[0].to.is_none());
    assert!(under[0].start == 0.0 && (under[0].end - 200.0).abs() < 1e-9, "{}..{}", under[0].start, under[0].end);
    let ramp = pieces("ramp");
    assert_eq!(ramp.len(), 1);
    assert_eq!(ramp[0].from.as_deref(), Some(origin.id.as_str()));
    assert!(ramp[0].to.is_none() && (ramp[0].end - 150.0).abs() < 1e-9);
    // `ground` is cut once, at the spur.
    assert_eq!(pieces("ground").len(), 2);
    assert_eq!(n.pieces.len(), 6);
}

#[test]
fn face_smaller_than_min_block_area_is_dropped() {
    let name = "small_face";
    let input = load(&format!("golden/{name}.roads.json"));
    // Two roads meeting end to end at (20, 20) cut a 20 m square off the corner of a 300 m
    // square: 13 m × 13 m between the curbs, less four rounded corners.
    let small = 13.0 * 13.0 - 4.0 * fillet_loss();
    let big = 293.0 * 293.0 - 23.5 * 23.5 - 4.0 * fillet_loss();
    // With the default minimum (1 m²) it is a block of its own.
    let (n, _) = build_checked(name, &input, &Settings::default());
    consistent(name, &n);
    assert_eq!(n.blocks.len(), 2);
    assert!(!has(&n, DiagnosticCode::FaceDropped), "{:?}", n.diagnostics);
    let at = blocks_at(&n, 10.0, 10.0);
    assert_eq!(at.len(), 1, "no block in the small square");
    assert!((at[0].area - small).abs() < 0.01 * small, "small block of {} m², expected {small}", at[0].area);
    // Raise the minimum above it (far below the rest of the big square): it gives no block and
    // a `face_dropped` inside it. (A dropped face is a gap between blocks and roads: it must
    // stay below 0.5 % of the enclosed area for `build_checked`, here 0.15 %.)
    let settings = Settings { min_block_area: 500.0, ..Settings::default() };
    assert!(small < settings.min_block_area && big > settings.min_block_area);
    let (n, _) = build_checked(name, &input, &settings);
    consistent(name, &n);
    assert!(blocks_at(&n, 10.0, 10.0).is_empty(), "a block in the small square");
    assert!(!block_vertex_in(&n, (3.5, 3.5), (16.5, 16.5)), "a block reaches into the small square");
    assert_eq!(n.blocks.len(), 1);
    let rest = blocks_at(&n, 150.0, 150.0);
    assert_eq!(rest.len(), 1, "the big face lost its block");
    assert!((rest[0].area - big).abs() < 0.01 * big, "big block of {} m², expected {big}", rest[0].area);
    let dropped: Vec<_> = n.diagnostics.iter().filter(|d| d.code == DiagnosticCode::FaceDropped).collect();
    assert_eq!(dropped.len(), 1, "{:?}", n.diagnostics);
    // On or inside the small face: within its curbs (3.5 m from the centerlines), up to the
    // block grid.
    let p = dropped[0].position;
    let e = 1e-3;
    assert!(p.x >= 3.5 - e && p.x <= 16.5 + e && p.y >= 3.5 - e && p.y <= 16.5 + e, "face_dropped at {p:?}");
    assert!(dropped[0].road.is_none());
}

#[test]
fn face_covered_by_roads_gives_no_block() {
    let name = "tight_dual_carriageway";
    let n = case(name);
    degrees_match_piece_ends(name, &n);
    // 7 m roads 4 m apart: their carriageways cover y = -3.5 .. 7.5, the whole face that the
    // centerlines enclose between the cross roads (0 <= x <= 100, 0 <= y <= 4).
    assert!(blocks_at(&n, 50.0, 2.0).is_empty(), "a block between the tight carriageways");
    assert!(!block_vertex_in(&n, (-3.5, -3.5), (103.5, 7.5)), "a block on the tight carriageways");
    assert!(!has(&n, DiagnosticCode::FaceDropped), "the covered face left a remnant: {:?}", n.diagnostics);
    // Each pair of ends on a cross road, 4 m apart, is one junction of four arms.
    for x in [0.0, 100.0] {
        let j = junction_at(&n, x, 2.0).unwrap_or_else(|| panic!("no junction at x = {x}"));
        let cross = if x == 0.0 { "tight_w" } else { "tight_e" };
        let mut roads = vec![cross, "tight_n", "tight_s"];
        roads.sort_unstable();
        assert_eq!(j.roads, roads);
        assert_eq!(j.degree, 4);
    }
    // The same drawn 40 m apart encloses one block: 93 m × 33 m between the curbs, less four
    // rounded corners.
    assert_eq!(n.blocks.len(), 1);
    let wide = blocks_at(&n, 350.0, 20.0);
    assert_eq!(wide.len(), 1);
    let expected = 93.0 * 33.0 - 4.0 * fillet_loss();
    assert!((wide[0].area - expected).abs() < 0.01 * expected, "block of {} m², expected {expected}", wide[0].area);
}
