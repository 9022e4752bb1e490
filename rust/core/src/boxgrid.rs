//! A grid over the boxes of features: which features meet a small region, without a look at
//! every feature of the network.
//!
//! An update of a [`crate::Session`] asks, many times over, which junctions, road pieces and
//! roads meet the region it re-solves. Asked of every feature, each question costs as much as
//! the network is large; asked of the cells of a square grid that the region covers, it costs as
//! much as the region holds. [`BoxGrid`] keeps keys (the ids of roads); [`PlacedGrid`] answers
//! with positions in a list (of junctions, of road pieces) that features come into and go out
//! of. [`CellsAlong`] walks the cells along a segment, nearest first, for the first feature a
//! ray meets.

use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxBuildHasher;

use crate::blocks::{boxes_meet as meets, Bbox};

/// Side of a cell of a [`BoxGrid`], metres: about a street's length in a city, so that a
/// junction's or a piece's box covers a few cells and a window of a few streets a few dozen.
pub(crate) const GRID_CELL: f64 = 64.0;

/// A box that covers more cells than this is kept apart in [`BoxGrid`] (every question sees it),
/// and a question about a region that covers more cells than this times the region's boxes is
/// answered with "everything" (`None`).
const MAX_CELLS: i64 = 256;

/// Lists shorter than this are looked through rather than asked of the grid: a look at a few
/// thousand boxes in a row costs less than the grid's lookups (liege_center's 1,962 junctions
/// and pieces: a median update 4 to 9 % slower with the grid; liege's 22,814: 10 to 25 %
/// faster).
pub(crate) const MIN_LIST: usize = 4096;

/// The keys and boxes of the features whose boxes meet each cell of a square grid of side
/// [`GRID_CELL`].
pub(crate) struct BoxGrid<K> {
    cells: HashMap<(i64, i64), Vec<(Bbox, K)>, FxBuildHasher>,
    /// Features whose boxes cover more than [`MAX_CELLS`] cells.
    wide: Vec<(Bbox, K)>,
}

impl<K> Default for BoxGrid<K> {
    fn default() -> Self {
        Self { cells: HashMap::default(), wide: Vec::new() }
    }
}

/// The cells a box covers (lowest and highest cell in each axis), or `None` for a box that
/// holds nothing (an empty box, a box with a coordinate that is not a number).
fn cell_range(b: Bbox) -> Option<([i64; 2], [i64; 2])> {
    if !(b.0[0] <= b.1[0] && b.0[1] <= b.1[1]) {
        return None;
    }
    // Saturating casts: a box past the range of the cells lies in the outermost ones.
    let cell = |v: f64| (v / GRID_CELL).floor() as i64;
    Some(([cell(b.0[0]), cell(b.0[1])], [cell(b.1[0]), cell(b.1[1])]))
}

/// How many cells a range covers, saturating.
fn cell_count((lo, hi): ([i64; 2], [i64; 2])) -> i64 {
    let span = |a: i64, b: i64| b.saturating_sub(a).saturating_add(1);
    span(lo[0], hi[0]).saturating_mul(span(lo[1], hi[1]))
}

/// The cells that the segment from `a` to `b` passes through, in order along it, each with the
/// parameter (0 at `a`, 1 at `b`) at which the segment leaves it: a walk of the grid's cells
/// (Amanatides and Woo's), one cell a step, as many steps as the cells from the first to the
/// last in each axis. The cells are worked out in floating point, so a segment that grazes a
/// corner may step through the corner's other neighbour: an order in which to look, not a test;
/// callers decide what they find exactly.
pub(crate) struct CellsAlong {
    cell: [i64; 2],
    step: [i64; 2],
    /// The parameter at which the segment crosses the next cell boundary in each axis.
    next: [f64; 2],
    /// The parameter the segment takes to cross a cell in each axis.
    delta: [f64; 2],
    /// Steps left.
    left: u64,
}

impl CellsAlong {
    /// The walk from `a` to `b`.
    pub(crate) fn new(a: [f64; 2], b: [f64; 2]) -> Self {
        let cell = |v: f64| (v / GRID_CELL).floor() as i64;
        let (start, end) = ([cell(a[0]), cell(a[1])], [cell(b[0]), cell(b[1])]);
        let (mut step, mut next, mut delta) = ([0i64; 2], [f64::INFINITY; 2], [f64::INFINITY; 2]);
        for k in 0..2 {
            let d = b[k] - a[k];
            if d > 0.0 {
                step[k] = 1;
                next[k] = ((start[k] as f64 + 1.0) * GRID_CELL - a[k]) / d;
                delta[k] = GRID_CELL / d;
            } else if d < 0.0 {
                step[k] = -1;
                next[k] = (start[k] as f64 * GRID_CELL - a[k]) / d;
                delta[k] = -GRID_CELL / d;
            }
        }
        let span = |k: usize| end[k].abs_diff(start[k]);
        Self { cell: start, step, next, delta, left: span(0).saturating_add(span(1)).saturating_add(1) }
    }

    /// How many cells the walk visits at most.
    pub(crate) fn len_bound(&self) -> u64 {
        self.left
    }
}

impl Iterator for CellsAlong {
    type Item = ((i64, i64), f64);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let here = (self.cell[0], self.cell[1]);
        let k = if self.next[0] <= self.next[1] { 0 } else { 1 };
        let leave = self.next[k].min(1.0);
        self.cell[k] = self.cell[k].saturating_add(self.step[k]);
        self.next[k] += self.delta[k];
        Some((here, leave))
    }
}

impl<K: Ord + Clone> BoxGrid<K> {
    /// A grid of features given as (key, box).
    pub(crate) fn of(features: impl Iterator<Item = (K, Bbox)>) -> Self {
        let mut g = Self::default();
        for (k, b) in features {
            g.insert(k, b);
        }
        g
    }

    /// Adds feature `id` with box `b` (nothing for a box that holds nothing: it meets nothing).
    pub(crate) fn insert(&mut self, id: K, b: Bbox) {
        let Some(range) = cell_range(b) else { return };
        if cell_count(range) > MAX_CELLS {
            self.wide.push((b, id));
            return;
        }
        let (lo, hi) = range;
        for i in lo[0]..=hi[0] {
            for j in lo[1]..=hi[1] {
                self.cells.entry((i, j)).or_default().push((b, id.clone()));
            }
        }
    }

    /// Takes out feature `id`, added with box `b`.
    pub(crate) fn remove(&mut self, id: &K, b: Bbox) {
        let Some(range) = cell_range(b) else { return };
        if cell_count(range) > MAX_CELLS {
            if let Some(k) = self.wide.iter().position(|w| w.1 == *id) {
                self.wide.swap_remove(k);
            }
            return;
        }
        let (lo, hi) = range;
        for i in lo[0]..=hi[0] {
            for j in lo[1]..=hi[1] {
                if let Some(list) = self.cells.get_mut(&(i, j)) {
                    if let Some(k) = list.iter().position(|w| w.1 == *id) {
                        list.swap_remove(k);
                    }
                    if list.is_empty() {
                        self.cells.remove(&(i, j));
                    }
                }
            }
        }
    }

    /// The features whose boxes meet cell `c` (not those kept apart: [`BoxGrid::wide`]).
    pub(crate) fn cell(&self, c: (i64, i64)) -> &[(Bbox, K)] {
        self.cells.get(&c).map_or(&[], Vec::as_slice)
    }

    /// The features whose boxes cover too many cells to be kept in them.
    pub(crate) fn wide(&self) -> &[(Bbox, K)] {
        &self.wide
    }

    /// Calls `f` with the key of every feature whose box meets one of `boxes` (closed boxes),
    /// in no order, a feature whose box covers several cells once for each; false (and no call)
    /// when the boxes cover too many cells to ask, or when the list the caller looks through
    /// instead (`list` boxes long) is short ([`MIN_LIST`]).
    pub(crate) fn each_near<'a>(&'a self, boxes: &[Bbox], list: usize, mut f: impl FnMut(&'a K)) -> bool {
        if list < MIN_LIST {
            return false;
        }
        let ranges: Vec<_> = boxes.iter().filter_map(|b| cell_range(*b).map(|r| (*b, r))).collect();
        let cells = ranges.iter().fold(0i64, |n, (_, r)| n.saturating_add(cell_count(*r)));
        if cells > MAX_CELLS.saturating_mul(boxes.len().max(1) as i64) {
            return false;
        }
        for (b, k) in &self.wide {
            if boxes.iter().any(|x| meets(*x, *b)) {
                f(k);
            }
        }
        // Each cell once, asked about the boxes that cover it: a feature that meets one of them
        // is in a cell that the box covers.
        let mut visits: Vec<((i64, i64), usize)> = Vec::new();
        for (k, (_, (lo, hi))) in ranges.iter().enumerate() {
            for i in lo[0]..=hi[0] {
                for j in lo[1]..=hi[1] {
                    visits.push(((i, j), k));
                }
            }
        }
        visits.sort_unstable();
        for group in visits.chunk_by(|a, b| a.0 == b.0) {
            for (b, key) in self.cells.get(&group[0].0).into_iter().flatten() {
                if group.iter().any(|&(_, k)| meets(ranges[k].0, *b)) {
                    f(key);
                }
            }
        }
        true
    }
}

impl BoxGrid<Arc<str>> {
    /// The names of the features whose boxes meet one of `boxes`, sorted, each once; `None`
    /// when the grid is not asked ([`BoxGrid::each_near`], `list`). A feature's cells share its
    /// name: the many answers of a feature across many cells are told apart by address before
    /// names are compared.
    pub(crate) fn near_names(&self, boxes: &[Bbox], list: usize) -> Option<Vec<&str>> {
        let mut out: Vec<&Arc<str>> = Vec::new();
        if !self.each_near(boxes, list, |k| out.push(k)) {
            return None;
        }
        let address = |k: &&Arc<str>| Arc::as_ptr(k).cast::<u8>() as usize;
        out.sort_unstable_by_key(address);
        out.dedup_by_key(|k| address(k));
        let mut names: Vec<&str> = out.into_iter().map(|k| &**k).collect();
        names.sort_unstable();
        names.dedup();
        Some(names)
    }
}

/// A [`BoxGrid`] over a list of boxes that features come into and go out of, answering with
/// positions in the list. The grid keys the boxes by slots that stay while the features around
/// them move; the slots' positions are set again in one pass over the list after a change that
/// moves them ([`PlacedGrid::settle`]). Over a list shorter than [`MIN_LIST`] it keeps nothing
/// (every question is answered by the list).
#[derive(Default)]
pub(crate) struct PlacedGrid {
    /// Whether the grid is kept.
    active: bool,
    grid: BoxGrid<usize>,
    /// The slot of the box at each position of the list.
    slot_of: Vec<usize>,
    /// The position of the box of each slot (of a free slot: unused).
    at: Vec<usize>,
    free: Vec<usize>,
    /// Positions moved since the last [`PlacedGrid::settle`].
    moved: bool,
    /// Whether the grid answers however short the list is ([`PlacedGrid::kept`]).
    always: bool,
}

impl PlacedGrid {
    /// The grid of the list `boxes`.
    pub(crate) fn of(boxes: &[Bbox]) -> Self {
        if boxes.len() < MIN_LIST {
            return Self::default();
        }
        Self::built(boxes, false)
    }

    /// The grid of the list `boxes`, kept and asked however short the list is (for tests of
    /// the questions a long list's grid answers, on small networks).
    #[cfg(test)]
    pub(crate) fn kept(boxes: &[Bbox]) -> Self {
        Self::built(boxes, true)
    }

    fn built(boxes: &[Bbox], always: bool) -> Self {
        let n = boxes.len();
        Self {
            active: true,
            grid: BoxGrid::of(boxes.iter().copied().enumerate()),
            slot_of: (0..n).collect(),
            at: (0..n).collect(),
            free: Vec::new(),
            moved: false,
            always,
        }
    }

    /// The box at position `i` changed from `old` to `new`.
    pub(crate) fn set(&mut self, i: usize, old: Bbox, new: Bbox) {
        if let Some(&slot) = self.slot_of.get(i) {
            self.grid.remove(&slot, old);
            self.grid.insert(slot, new);
        }
    }

    /// The boxes whose `gone` marks are set leave the list (`boxes`: the list before).
    pub(crate) fn drop_marked(&mut self, gone: &[bool], boxes: &[Bbox]) {
        if !self.active {
            return;
        }
        let mut keep = Vec::with_capacity(self.slot_of.len());
        for (i, &slot) in self.slot_of.iter().enumerate() {
            if gone.get(i).copied().unwrap_or(false) {
                if let Some(b) = boxes.get(i) {
                    self.grid.remove(&slot, *b);
                }
                self.free.push(slot);
            } else {
                keep.push(slot);
            }
        }
        self.slot_of = keep;
        self.moved = true;
    }

    /// Box `b` comes into the list at position `i` (those from `i` on move up one).
    pub(crate) fn insert(&mut self, i: usize, b: Bbox) {
        if !self.active {
            return;
        }
        let slot = self.free.pop().unwrap_or_else(|| {
            self.at.push(0);
            self.at.len() - 1
        });
        self.slot_of.insert(i.min(self.slot_of.len()), slot);
        self.grid.insert(slot, b);
        self.moved = true;
    }

    /// Sets the slots' positions after boxes came or went.
    pub(crate) fn settle(&mut self) {
        if self.moved {
            for (i, &slot) in self.slot_of.iter().enumerate() {
                self.at[slot] = i;
            }
            self.moved = false;
        }
    }

    /// Whether the grid is kept (the list is long enough, [`MIN_LIST`]).
    pub(crate) fn is_kept(&self) -> bool {
        self.active
    }

    /// Calls `f` with the position of every box in cell `c` and of every box kept apart from the
    /// cells (each of those at every call); false (and no call) when the grid is not kept.
    /// Settled ([`PlacedGrid::settle`]) first.
    pub(crate) fn each_in_cell(&self, c: (i64, i64), with_wide: bool, mut f: impl FnMut(usize)) -> bool {
        if !self.active {
            return false;
        }
        let wide = if with_wide { self.grid.wide() } else { &[] };
        for (_, slot) in self.grid.cell(c).iter().chain(wide) {
            if let Some(&i) = self.at.get(*slot) {
                f(i);
            }
        }
        true
    }

    /// The positions of the boxes that meet one of `region`, in order; `None` when the list is
    /// to be looked through instead ([`BoxGrid::each_near`]). Settled ([`PlacedGrid::settle`])
    /// first.
    pub(crate) fn meeting(&self, region: &[Bbox]) -> Option<Vec<usize>> {
        if !self.active {
            return None;
        }
        let n = self.slot_of.len();
        let mut seen = vec![0u64; n.div_ceil(64)];
        let list = if self.always { n.max(MIN_LIST) } else { n };
        let asked = self.grid.each_near(region, list, |&slot| {
            if let Some(&i) = self.at.get(slot) {
                if let Some(w) = seen.get_mut(i / 64) {
                    *w |= 1 << (i % 64);
                }
            }
        });
        asked.then(|| {
            let mut out = Vec::new();
            for (k, &w) in seen.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    out.push(k * 64 + w.trailing_zeros() as usize);
                    w &= w - 1;
                }
            }
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boxes of many sizes (some across many cells, some empty), added, some taken out again:
    /// every box that meets a question's boxes is in the answer.
    #[test]
    fn every_box_that_meets_is_found() {
        let boxes: Vec<(String, Bbox)> = (0..600)
            .map(|k| {
                let (x, y) = ((k * 37 % 1009) as f64 - 300.0, (k * 53 % 997) as f64 - 500.0);
                let (w, h) = ((k % 7) as f64 * 9.0, if k % 50 == 0 { 40_000.0 } else { (k % 5) as f64 * 13.0 });
                let b =
                    if k % 97 == 0 { ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]) } else { ([x, y], [x + w, y + h]) };
                (format!("f{k:04}"), b)
            })
            .collect();
        let mut grid = BoxGrid::of(boxes.iter().map(|(id, b)| (Arc::from(id.as_str()), *b)));
        for (id, b) in boxes.iter().step_by(3) {
            grid.remove(&Arc::from(id.as_str()), *b);
        }
        let kept: Vec<&(String, Bbox)> = boxes.iter().enumerate().filter(|(k, _)| k % 3 != 0).map(|(_, f)| f).collect();
        // A corner of a kept box, a point: on the edge of that box.
        let corner = kept[10].1 .1;
        let questions: Vec<Vec<Bbox>> = vec![
            vec![([0.0, 0.0], [90.0, 90.0])],
            vec![kept[50].1, ([500.0, 100.0], [700.0, 130.0])],
            vec![(corner, corner)],
        ];
        for q in &questions {
            let found: Vec<&str> = grid.near_names(q, usize::MAX).expect("a small region");
            let want: Vec<&str> =
                kept.iter().filter(|(_, b)| q.iter().any(|x| meets(*x, *b))).map(|(id, _)| id.as_str()).collect();
            assert!(!want.is_empty());
            for id in &want {
                assert!(found.binary_search(id).is_ok(), "{id} meets {q:?} but was not found");
            }
            assert!(found.windows(2).all(|w| w[0] < w[1]), "sorted, each once");
            assert_eq!(found, want, "exactly the boxes that meet, in order");
        }
        // A region over too many cells is not asked.
        assert!(grid.near_names(&[([-1e6, -1e6], [1e6, 1e6])], usize::MAX).is_none());
        // Nor one about a short list (looked through instead).
        assert!(grid.near_names(&[([0.0, 0.0], [90.0, 90.0])], MIN_LIST - 1).is_none());
    }

    /// Boxes changed, taken out and put in, as an update does to a list of features: the
    /// positions the grid gives are those of the boxes in the list that meet the region.
    #[test]
    fn positions_follow_the_list() {
        let at = |k: usize| {
            let (x, y) = ((k * 41 % 2111) as f64 * 3.0, (k * 29 % 1999) as f64 * 3.0);
            ([x, y], [x + (k % 9) as f64 * 20.0, y + (k % 4) as f64 * 30.0])
        };
        // Long enough a list to be asked of the grid.
        let mut boxes: Vec<Bbox> = (0..2 * MIN_LIST).map(at).collect();
        let mut grid = PlacedGrid::of(&boxes);
        for i in (0..boxes.len()).step_by(7) {
            let b = at(i + 1000);
            grid.set(i, boxes[i], b);
            boxes[i] = b;
        }
        let gone: Vec<bool> = (0..boxes.len()).map(|i| i % 5 == 2).collect();
        grid.drop_marked(&gone, &boxes);
        boxes = boxes.into_iter().zip(&gone).filter(|(_, g)| !**g).map(|(b, _)| b).collect();
        for k in 0..40 {
            let i = (k * 37) % boxes.len();
            let b = at(k + 2000);
            boxes.insert(i, b);
            grid.insert(i, b);
        }
        grid.settle();
        for region in
            [vec![([100.0, 100.0], [180.0, 150.0])], vec![([0.0, 0.0], [5.0, 5.0]), ([400.0, 300.0], [460.0, 420.0])]]
        {
            let want: Vec<usize> = (0..boxes.len()).filter(|&i| region.iter().any(|r| meets(*r, boxes[i]))).collect();
            assert!(!want.is_empty());
            assert_eq!(grid.meeting(&region).expect("a small region"), want);
        }
    }

    /// A walk along a segment starts in the cell of its start and ends in the cell of its end,
    /// each step to a neighbouring cell, the parameters rising to 1; every cell that a point of
    /// the segment lies in (well inside it) is visited.
    #[test]
    fn the_walk_visits_the_cells_of_the_segment_in_order() {
        let cell = |p: [f64; 2]| ((p[0] / GRID_CELL).floor() as i64, (p[1] / GRID_CELL).floor() as i64);
        let segments = [
            ([3.0, 5.0], [900.0, 611.0]),
            ([-130.5, 70.0], [-130.5, -900.0]),
            ([10.0, -10.0], [-700.0, -10.0]),
            ([1000.0, 1000.0], [-1000.0, -999.0]),
            ([5.0, 5.0], [6.0, 7.0]),
            ([64.0, 0.0], [0.0, 64.0]),
        ];
        for (a, b) in segments {
            let walk: Vec<((i64, i64), f64)> = CellsAlong::new(a, b).collect();
            let inside = |v: f64| (v / GRID_CELL - (v / GRID_CELL).round()).abs() > 1e-6;
            assert_eq!(walk.first().map(|w| w.0), Some(cell(a)), "{a:?} to {b:?}");
            // (An end on a cell's corner may be reached through the corner's other neighbour.)
            if inside(b[0]) && inside(b[1]) {
                assert_eq!(walk.last().map(|w| w.0), Some(cell(b)), "{a:?} to {b:?}");
                assert_eq!(walk.last().map(|w| w.1), Some(1.0));
            }
            for w in walk.windows(2) {
                let (c, d) = (w[0].0, w[1].0);
                assert_eq!((c.0 - d.0).abs() + (c.1 - d.1).abs(), 1, "neighbours: {c:?} {d:?}");
                assert!(w[0].1 <= w[1].1, "in order along the segment");
            }
            for k in 0..=1000 {
                let t = k as f64 / 1000.0;
                let p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
                if inside(p[0]) && inside(p[1]) {
                    let (c, _) = walk.iter().find(|w| w.0 == cell(p)).expect("visited");
                    assert_eq!(*c, cell(p));
                }
            }
        }
    }
}
