//! The PNG preview through the public API: size, colours, errors, determinism.

use roadgen_core::{Block, Diagnostic, DiagnosticCode, Junction, Network, Point, Polygon, RoadPiece};
use roadgen_formats::{render_preview, PreviewOptions};
use tiny_skia::Pixmap;

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon {
        exterior: vec![Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)],
        holes: vec![],
    }
}

fn block(id: &str, polygon: Polygon) -> Block {
    Block { id: id.into(), polygon, area: 0.0, profile: Default::default(), bands: vec![], lots: vec![] }
}

fn piece(id: &str, width: f64, polygon: Polygon) -> RoadPiece {
    RoadPiece {
        id: id.into(),
        road: "r".into(),
        from: None,
        to: None,
        start: 0.0,
        end: 1.0,
        centerline: vec![],
        width,
        profile: Default::default(),
        polygon,
    }
}

fn junction(id: &str, polygon: Polygon) -> Junction {
    Junction { id: id.into(), center: polygon.exterior[0], degree: 3, roads: vec!["r".into()], polygon }
}

/// Two blocks side by side on a `w` × `h` m area, split by a north-south road of width 10 m,
/// with a road along the south edge, a junction where they meet, and one diagnostic.
fn network(w: f64, h: f64) -> Network {
    let mid = w / 2.0;
    Network {
        blocks: vec![
            block("block-west", rect(0.0, 10.0, mid - 5.0, h)),
            block("block-east", rect(mid + 5.0, 10.0, w, h)),
        ],
        pieces: vec![
            piece("piece-n", 10.0, rect(mid - 5.0, 10.0, mid + 5.0, h)),
            piece("piece-w", 10.0, rect(0.0, 0.0, mid - 5.0, 10.0)),
            piece("piece-e", 10.0, rect(mid + 5.0, 0.0, w, 10.0)),
        ],
        junctions: vec![junction("j", rect(mid - 5.0, 0.0, mid + 5.0, 10.0))],
        diagnostics: vec![Diagnostic {
            code: DiagnosticCode::NearMiss,
            position: Point::new(mid, h * 0.75),
            road: Some("r".into()),
            message: "near miss".into(),
        }],
    }
}

/// Width and height from the PNG signature and IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.len() > 33, "too short for a PNG");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&png[12..16], b"IHDR", "first chunk is IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

fn rgb_at(pixmap: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = pixmap.pixel(x, y).expect("inside the picture").demultiply();
    [c.red(), c.green(), c.blue()]
}

#[test]
fn preview_wide_network_has_the_expected_size() {
    // 400 × 100 m: long side 2048 = 2000 + 2 × 24, so 5 px/m and a height of 500 + 48.
    let png = render_preview(&network(400.0, 100.0), &PreviewOptions::default()).unwrap();
    assert_eq!(png_size(&png), (2048, 548));
    let pixmap = Pixmap::decode_png(&png).expect("decodes as PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (2048, 548));
}

#[test]
fn preview_tall_network_has_the_expected_size() {
    let opts = PreviewOptions { max_size_px: 520, margin_px: 10 };
    // 100 × 250 m: long side 500 px for 250 m → 2 px/m, width 200 + 20.
    let png = render_preview(&network(100.0, 250.0), &opts).unwrap();
    assert_eq!(png_size(&png), (220, 520));
    Pixmap::decode_png(&png).expect("decodes as PNG");
}

#[test]
fn preview_block_centre_is_filled_and_differs_from_the_road() {
    let opts = PreviewOptions { max_size_px: 448, margin_px: 24 };
    // 200 × 200 m at 2 px/m; (x, y) m → (24 + 2x, 24 + 2(200 - y)) px.
    let png = render_preview(&network(200.0, 200.0), &opts).unwrap();
    let pixmap = Pixmap::decode_png(&png).unwrap();
    let to_px = |x: f64, y: f64| -> (u32, u32) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let p = ((24.0 + 2.0 * x) as u32, (24.0 + 2.0 * (200.0 - y)) as u32);
        p
    };
    let background = rgb_at(&pixmap, 2, 2);
    let (bx, by) = to_px(47.5, 105.0); // centre of the west block
    let block = rgb_at(&pixmap, bx, by);
    // The block's fill is uniform around its centre.
    for (dx, dy) in [(-20i32, 0i32), (20, 0), (0, -20), (0, 20)] {
        let x = bx.checked_add_signed(dx).unwrap();
        let y = by.checked_add_signed(dy).unwrap();
        assert_eq!(rgb_at(&pixmap, x, y), block, "block fill at ({x}, {y})");
    }
    let (rx, ry) = to_px(100.0, 105.0); // centre of the north-south road
    let road = rgb_at(&pixmap, rx, ry);
    let (jx, jy) = to_px(100.0, 5.0); // centre of the junction
    let junction = rgb_at(&pixmap, jx, jy);
    assert_ne!(block, road);
    assert_ne!(block, background);
    assert_ne!(road, background);
    assert_ne!(junction, road, "junctions are drawn in their own tone");
    // Roads are a grey.
    assert!(road[0].abs_diff(road[1]) < 8 && road[1].abs_diff(road[2]) < 8, "{road:?}");
    // The diagnostic marker is red.
    let (dx, dy) = to_px(100.0, 150.0);
    let d = rgb_at(&pixmap, dx, dy);
    assert!(d[0] > 150 && d[1] < 100 && d[2] < 100, "{d:?}");
}

#[test]
fn preview_north_is_up() {
    // One block in the north half only: the top of the picture is coloured, the bottom not.
    let mut net = Network::default();
    net.blocks.push(block("b", rect(0.0, 50.0, 100.0, 100.0)));
    net.diagnostics.push(Diagnostic {
        code: DiagnosticCode::FaceDropped,
        position: Point::new(0.0, 0.0),
        road: None,
        message: String::new(),
    });
    let opts = PreviewOptions { max_size_px: 120, margin_px: 10 };
    let pixmap = Pixmap::decode_png(&render_preview(&net, &opts).unwrap()).unwrap();
    let background = rgb_at(&pixmap, 1, 1);
    assert_ne!(rgb_at(&pixmap, 60, 35), background, "north half filled");
    assert_eq!(rgb_at(&pixmap, 60, 85), background, "south half empty");
}

#[test]
fn preview_empty_network_gives_a_small_background_picture() {
    let png = render_preview(&Network::default(), &PreviewOptions::default()).unwrap();
    assert_eq!(png_size(&png), (128, 128));
    let pixmap = Pixmap::decode_png(&png).unwrap();
    let first = rgb_at(&pixmap, 0, 0);
    assert_eq!(rgb_at(&pixmap, 64, 64), first);
}

#[test]
fn preview_nan_and_infinite_coordinates_are_errors() {
    let opts = PreviewOptions::default();
    let mut net = network(100.0, 100.0);
    net.blocks[1].polygon.exterior[2].x = f64::NAN;
    let err = render_preview(&net, &opts).unwrap_err();
    assert!(err.to_string().contains("block-east"), "{err}");

    let mut net = network(100.0, 100.0);
    net.junctions[0].polygon.exterior[0].y = f64::INFINITY;
    assert!(render_preview(&net, &opts).is_err());

    let mut net = network(100.0, 100.0);
    net.diagnostics[0].position = Point::new(f64::NAN, 0.0);
    assert!(render_preview(&net, &opts).is_err());

    let mut net = network(100.0, 100.0);
    net.pieces[0].polygon.holes.push(vec![Point::new(1.0, f64::NEG_INFINITY)]);
    assert!(render_preview(&net, &opts).is_err());
}

#[test]
fn preview_extreme_inputs_do_not_panic() {
    let opts = PreviewOptions { max_size_px: 256, margin_px: 8 };
    // Coordinates whose extent overflows.
    let mut net = Network::default();
    net.blocks.push(block("huge", rect(-f64::MAX, -f64::MAX, f64::MAX, f64::MAX)));
    assert!(render_preview(&net, &opts).is_err());

    // A huge but finite polygon, far from the origin.
    let mut net = network(1e12, 3e11);
    for b in &mut net.blocks {
        for p in &mut b.polygon.exterior {
            p.x += 1e15;
        }
    }
    render_preview(&net, &opts).unwrap();

    // A polygon with many vertices.
    let n = 200_000;
    let ring: Vec<Point> = (0..n)
        .map(|i| {
            let a = f64::from(i) / f64::from(n) * std::f64::consts::TAU;
            Point::new(1000.0 * a.cos(), 1000.0 * a.sin())
        })
        .collect();
    let mut net = Network::default();
    net.blocks.push(block("round", Polygon { exterior: ring, holes: vec![] }));
    render_preview(&net, &opts).unwrap();

    // Degenerate things: one point, empty rings, a tiny network, a line-shaped network.
    let mut net = Network::default();
    net.blocks.push(block("empty", Polygon::default()));
    net.pieces.push(piece("dot", 5.0, rect(3.0, 3.0, 3.0, 3.0)));
    net.junctions.push(junction("line", rect(0.0, 3.0, 1e6, 3.0)));
    render_preview(&net, &opts).unwrap();
    let mut net = Network::default();
    net.pieces.push(piece("dot", 5.0, rect(3.0, 3.0, 3.0, 3.0)));
    render_preview(&net, &opts).unwrap();
    render_preview(&network(1e-7, 1e-7), &opts).unwrap();
    // Thin roads (sub-pixel at this scale) and a NaN width.
    let mut net = network(1e6, 1e6);
    net.pieces[0].width = f64::NAN;
    render_preview(&net, &opts).unwrap();

    // Options that cannot give a picture.
    for (max_size_px, margin_px) in [(0, 0), (10, 24), (100_000, 24), (u32::MAX, u32::MAX)] {
        let opts = PreviewOptions { max_size_px, margin_px };
        assert!(render_preview(&network(10.0, 10.0), &opts).is_err());
    }
}

#[test]
fn preview_is_deterministic() {
    let net = network(300.0, 180.0);
    let opts = PreviewOptions::default();
    let a = render_preview(&net, &opts).unwrap();
    let b = render_preview(&net.clone(), &opts).unwrap();
    assert!(a == b, "two renders differ");
}
