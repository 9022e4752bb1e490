//! The C header the plugin includes is the one cbindgen generates from the current source.

use std::path::Path;

/// Where the plugin includes the header from.
const COMMITTED: &str = "UnrealPlugin/RoadGen/Source/ThirdParty/RoadGenLib/include/roadgen.h";

#[test]
fn committed_header_is_current() {
    let generated = include_str!(concat!(env!("OUT_DIR"), "/roadgen.h"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(COMMITTED);
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{COMMITTED}: {e}"));
    if committed != generated {
        let line = committed.lines().zip(generated.lines()).position(|(a, b)| a != b);
        panic!(
            "{COMMITTED} differs from the header generated from rust/capi/ (first at line {}); \
             run scripts/update_header.sh and commit the result",
            line.map_or_else(|| "the end".to_string(), |l| (l + 1).to_string())
        );
    }
}
