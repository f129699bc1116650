//! The measured tabletop of I Bury the Gods: real coordinates in inches, round bases,
//! obstacles as shapes, line of sight, cover, distances and movement around obstacles.
//!
//! Choices (CONTENT.md, "Geometry"):
//! - **Coordinates** are `f32` inches for computing; a model's place in the state is a [`Pos`]
//!   in hundredths of an inch (`u16`), so a position text printed with two decimals reads back
//!   to exactly the same state. Every move ends by rounding to the nearest hundredth.
//! - **Distances** between models are measured **edge to edge** (base to base): centre distance
//!   minus both radii, never below 0 ([`edge_distance`]). "Within 1 inch", "in combat within 2
//!   inches", blind's 6 inches, keen senses' 12 inches and a weapon's range all use it. A move's
//!   length (up to 4 inches) is the distance the base's centre travels.
//! - **Obstacles** are axis-aligned rectangles, circles or convex polygons of up to
//!   [`MAX_VERTICES`] corners ([`Shape`]; any other outline is a union of these). They block movement and
//!   sight; they give cover to a model whose base is within 1 inch of them when they partly hide
//!   it ([`partly_hidden`]). Models do not block sight.
//! - **Line of sight** is the segment between the two centres: blocked when it passes through
//!   the interior of an obstacle (grazing an edge or a corner does not block). The test orders the
//!   two endpoints canonically before computing, so it is symmetric bit for bit ([`line_of_sight`]).
//! - **Movement** follows a visibility graph ([`Nav`]): obstacles grown by the mover's radius,
//!   nodes just outside their corners (rectangles, polygons) or on a circumscribed octagon (circles),
//!   all-pairs shortest routes computed once when the content is compiled. A route is the straight
//!   segment when it is clear, else start → a node seen from the start → ... → a node that sees
//!   the goal → goal, the shortest such. A visibility graph gives exact shortest paths among
//!   polygons with a few dozen nodes, where a fine grid (0.1 inch on a 48-inch table: 230,000
//!   cells) would cost a breadth-first search per move; the graph costs a few dozen segment tests.
//!   Speed-ups that change no route (checked against the plain search by
//!   `tests/gods_geometry.rs`): each grown obstacle's bounding box is computed once and tested
//!   first, in one loop ([`clear_of`], also the encounter's line of sight); a goal's sight from
//!   a node is tested only where a route could use it (the nodes of least straight-line bound
//!   `|a j| + |j b|` first until a route is found, then the others only where their bound does
//!   not exceed it); each thread remembers which nodes see the last 8 goals, since a move's
//!   goal is often an earlier move's (an objective, a patrol point, a hiding node, the
//!   Scoundrel); and each thread remembers, for the last 8 starts routed from three times, the
//!   shortest route from the start to every node, since a greedy look-ahead moves the
//!   Scoundrel from one place toward a dozen goals and replays the fatelings' moves from the
//!   same places (a start routed from once or twice is searched directly, testing the start's
//!   sight of a node only where it would shorten a route).
//!   Other models are not routed around: a move stops where its base would first touch another
//!   base ([`Nav::walk`]), so it never passes through a model.
//!
//! Segment-shape tests are our own ([`Shape::blocks_segment`]): on this machine a Liang-Barsky
//! slab test takes about 6 ns against 40 ns for `geo`'s `Line::intersects(&Rect)` (the commit
//! that added this module has the measurement).

use std::fmt;

/// Tolerance in inches for contact and clearance tests (twice the rounding of a [`Pos`]).
pub const EPS: f32 = 0.01;

/// The resolution of stored positions: hundredths of an inch.
pub const QUANTUM: f32 = 100.0;

/// A point in inches (`x` to the right, `y` up, origin at the table's bottom-left corner).
#[derive(Copy, Clone, Debug, PartialEq, Default)]
pub struct Pt {
    /// Inches from the left edge.
    pub x: f32,
    /// Inches from the bottom edge.
    pub y: f32,
}

impl Pt {
    /// A point.
    pub const fn new(x: f32, y: f32) -> Pt {
        Pt { x, y }
    }
    /// `self + o`.
    #[inline]
    pub fn plus(self, o: Pt) -> Pt {
        Pt::new(self.x + o.x, self.y + o.y)
    }
    /// `self - o`.
    #[inline]
    pub fn minus(self, o: Pt) -> Pt {
        Pt::new(self.x - o.x, self.y - o.y)
    }
    /// `self * k`.
    #[inline]
    pub fn scale(self, k: f32) -> Pt {
        Pt::new(self.x * k, self.y * k)
    }
    /// Dot product.
    #[inline]
    pub fn dot(self, o: Pt) -> f32 {
        self.x * o.x + self.y * o.y
    }
    /// Length.
    #[inline]
    pub fn len(self) -> f32 {
        self.dot(self).sqrt()
    }
    /// Centre-to-centre distance.
    #[inline]
    pub fn dist(self, o: Pt) -> f32 {
        self.minus(o).len()
    }
    /// The unit vector along `self` (`(0,0)` for a zero vector).
    #[inline]
    pub fn unit(self) -> Pt {
        let l = self.len();
        if l > 1e-6 {
            self.scale(1.0 / l)
        } else {
            Pt::default()
        }
    }
}

/// A stored position: hundredths of an inch on each axis (`0..=65535`, so tables up to 655
/// inches). Converting a [`Pt`] rounds to the nearest hundredth.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// Hundredths of an inch from the left edge.
    pub x: u16,
    /// Hundredths of an inch from the bottom edge.
    pub y: u16,
}

impl Pos {
    /// The point in inches.
    #[inline]
    pub fn pt(self) -> Pt {
        Pt::new(self.x as f32 / QUANTUM, self.y as f32 / QUANTUM)
    }
    /// The nearest stored position to `p` (clamped to `0..=655.35`).
    #[inline]
    pub fn from_pt(p: Pt) -> Pos {
        let q = |v: f32| (v * QUANTUM).round().clamp(0.0, u16::MAX as f32) as u16;
        Pos {
            x: q(p.x),
            y: q(p.y),
        }
    }
    /// Reads `(x,y)` in inches with at most two decimals (`(12.5,3.25)`); `None` otherwise.
    pub fn parse(s: &str) -> Option<Pos> {
        let inner = s.strip_prefix('(')?.strip_suffix(')')?;
        let (a, b) = inner.split_once(',')?;
        Some(Pos {
            x: parse_hundredths(a.trim())?,
            y: parse_hundredths(b.trim())?,
        })
    }
}

/// Reads a non-negative decimal with at most two decimals as hundredths (`"3.5"` → 350).
pub fn parse_hundredths(s: &str) -> Option<u16> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) || frac.len() > 2 {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let i: u32 = int.parse().ok()?;
    let f: u32 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<2}").parse().ok()?
    };
    u16::try_from(i.checked_mul(100)?.checked_add(f)?).ok()
}

/// Writes hundredths as inches with two decimals (`350` → `3.50`).
pub fn fmt_hundredths(v: u16) -> String {
    format!("{}.{:02}", v / 100, v % 100)
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", fmt_hundredths(self.x), fmt_hundredths(self.y))
    }
}

/// An obstacle's outline, in inches.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Shape {
    /// An axis-aligned rectangle from `(x0,y0)` (bottom-left) to `(x1,y1)` (top-right).
    Rect {
        /// Left edge.
        x0: f32,
        /// Bottom edge.
        y0: f32,
        /// Right edge.
        x1: f32,
        /// Top edge.
        y1: f32,
    },
    /// A circle.
    Circle {
        /// Centre.
        c: Pt,
        /// Radius.
        r: f32,
    },
    /// A strictly convex polygon (build it with [`Shape::convex`]): its corners in
    /// counter-clockwise order in `v[..n]`, `n` in `3..=`[`MAX_VERTICES`] (the rest unused).
    Poly {
        /// The corners, counter-clockwise; only the first `n` count.
        v: [Pt; MAX_VERTICES],
        /// How many corners.
        n: u8,
    },
}

/// The most corners of a [`Shape::Poly`] obstacle.
pub const MAX_VERTICES: usize = 8;

/// The z component of the cross product of `e` and `w` (positive when `w` lies to the left of
/// `e`).
#[inline]
fn cross(e: Pt, w: Pt) -> f32 {
    e.x * w.y - e.y * w.x
}

impl Shape {
    /// A convex polygon obstacle from its corners in either order (clockwise or
    /// counter-clockwise), or `None` unless there are 3 to [`MAX_VERTICES`] finite corners
    /// forming a strictly convex polygon (every corner turns the same way, none straight, no
    /// repeated corner, the outline not crossing itself).
    pub fn convex(corners: &[Pt]) -> Option<Shape> {
        let k = corners.len();
        if !(3..=MAX_VERTICES).contains(&k)
            || corners.iter().any(|p| !p.x.is_finite() || !p.y.is_finite())
        {
            return None;
        }
        let turn = |i: usize| {
            let (p, c, q) = (corners[(i + k - 1) % k], corners[i], corners[(i + 1) % k]);
            cross(c.minus(p), q.minus(c))
        };
        let ccw = turn(0) > 0.0;
        if (0..k).any(|i| (turn(i) > 0.0) != ccw || turn(i) == 0.0) {
            return None;
        }
        // Turning the same way at every corner is convex only if the outline winds once: the
        // edge directions' angles must add up to one full turn.
        let mut total = 0.0f64;
        for i in 0..k {
            let (p, c, q) = (corners[(i + k - 1) % k], corners[i], corners[(i + 1) % k]);
            let (e1, e2) = (c.minus(p), q.minus(c));
            total += f64::from(cross(e1, e2)).atan2(f64::from(e1.dot(e2)));
        }
        if (total.abs() - std::f64::consts::TAU).abs() > 1e-3 {
            return None;
        }
        let mut v = [Pt::default(); MAX_VERTICES];
        for (i, slot) in v.iter_mut().take(k).enumerate() {
            *slot = if ccw { corners[i] } else { corners[k - 1 - i] };
        }
        Some(Shape::Poly { v, n: k as u8 })
    }

    /// The shape grown by `d` inches on every side (a rectangle stays a rectangle and a polygon
    /// a polygon with the same corners' angles, each side moved out by `d`, so grown corners are
    /// sharp: a slightly larger keep-out than the exact rounded one).
    pub fn inflate(self, d: f32) -> Shape {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => Shape::Rect {
                x0: x0 - d,
                y0: y0 - d,
                x1: x1 + d,
                y1: y1 + d,
            },
            Shape::Circle { c, r } => Shape::Circle { c, r: r + d },
            Shape::Poly { v, n } => {
                let k = n as usize;
                let normal = |p: Pt, q: Pt| {
                    let e = q.minus(p).unit();
                    Pt::new(e.y, -e.x)
                };
                let mut w = v;
                for i in 0..k {
                    let (p, c, q) = (v[(i + k - 1) % k], v[i], v[(i + 1) % k]);
                    let (n1, n2) = (normal(p, c), normal(c, q));
                    // The meeting point of both sides moved out by d: n1.x = n1.c + d and
                    // n2.x = n2.c + d.
                    w[i] = c.plus(n1.plus(n2).scale(d / (1.0 + n1.dot(n2))));
                }
                Shape::Poly { v: w, n }
            }
        }
    }

    /// The centre of the shape.
    pub fn centre(self) -> Pt {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => Pt::new((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            Shape::Circle { c, .. } => c,
            Shape::Poly { v, n } => {
                let k = n as usize;
                let sum = v[..k].iter().fold(Pt::default(), |s, &p| s.plus(p));
                sum.scale(1.0 / k as f32)
            }
        }
    }

    /// How far the shape reaches from its centre along unit vector `u` (its support function).
    pub fn extent(self, u: Pt) -> f32 {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => {
                (x1 - x0) / 2.0 * u.x.abs() + (y1 - y0) / 2.0 * u.y.abs()
            }
            Shape::Circle { r, .. } => r,
            Shape::Poly { v, n } => {
                let c = self.centre();
                v[..n as usize]
                    .iter()
                    .map(|p| p.minus(c).dot(u))
                    .fold(f32::NEG_INFINITY, f32::max)
            }
        }
    }

    /// Distance from `p` to the shape (0 inside it).
    #[inline]
    pub fn distance(self, p: Pt) -> f32 {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => {
                let dx = (x0 - p.x).max(p.x - x1).max(0.0);
                let dy = (y0 - p.y).max(p.y - y1).max(0.0);
                (dx * dx + dy * dy).sqrt()
            }
            Shape::Circle { c, r } => (p.dist(c) - r).max(0.0),
            Shape::Poly { v, n } => {
                let k = n as usize;
                let edges = (0..k).map(|i| (v[i], v[(i + 1) % k]));
                if edges
                    .clone()
                    .all(|(a, b)| cross(b.minus(a), p.minus(a)) >= 0.0)
                {
                    return 0.0;
                }
                edges
                    .map(|(a, b)| segment_point_distance(a, b, p))
                    .fold(f32::INFINITY, f32::min)
            }
        }
    }

    /// Whether `p` lies strictly inside the shape.
    #[inline]
    pub fn contains(self, p: Pt) -> bool {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => p.x > x0 && p.x < x1 && p.y > y0 && p.y < y1,
            Shape::Circle { c, r } => p.minus(c).dot(p.minus(c)) < r * r,
            Shape::Poly { v, n } => {
                let k = n as usize;
                (0..k).all(|i| cross(v[(i + 1) % k].minus(v[i]), p.minus(v[i])) > 0.0)
            }
        }
    }

    /// The shape's bounding box `[x0, y0, x1, y1]` (left, bottom, right, top), in inches: the
    /// box [`Shape::blocks_segment`] rejects a segment against before its exact test.
    #[inline]
    pub fn bbox(self) -> [f32; 4] {
        match self {
            Shape::Rect { x0, y0, x1, y1 } => [x0, y0, x1, y1],
            Shape::Circle { c, r } => [c.x - r, c.y - r, c.x + r, c.y + r],
            Shape::Poly { v, n } => {
                let (mut lo, mut hi) = (v[0], v[0]);
                for p in &v[1..n as usize] {
                    lo = Pt::new(lo.x.min(p.x), lo.y.min(p.y));
                    hi = Pt::new(hi.x.max(p.x), hi.y.max(p.y));
                }
                [lo.x, lo.y, hi.x, hi.y]
            }
        }
    }

    /// Whether the segment `a`–`b` passes through the interior of the shape. Touching the
    /// boundary (grazing an edge, a corner or a circle's tangent) does not count. Symmetric:
    /// `blocks_segment(a, b) == blocks_segment(b, a)` exactly (the endpoints are put in a
    /// canonical order first).
    #[inline(always)]
    pub fn blocks_segment(self, a: Pt, b: Pt) -> bool {
        !misses_box(a, b, self.bbox()) && self.blocks_segment_in_box(a, b)
    }

    /// [`Shape::blocks_segment`] for a segment already known to meet the shape's bounding box
    /// ([`Shape::bbox`]; the answer is the same either way): the exact test alone.
    #[inline(always)]
    fn blocks_segment_in_box(self, a: Pt, b: Pt) -> bool {
        let (a, b) = canonical(a, b);
        match self {
            Shape::Rect { x0, y0, x1, y1 } => {
                // Liang-Barsky clipping against the open rectangle.
                let (dx, dy) = (b.x - a.x, b.y - a.y);
                let (mut t0, mut t1) = (0.0f32, 1.0f32);
                for (p, q) in [
                    (-dx, a.x - x0),
                    (dx, x1 - a.x),
                    (-dy, a.y - y0),
                    (dy, y1 - a.y),
                ] {
                    if p == 0.0 {
                        if q <= 0.0 {
                            return false;
                        }
                    } else {
                        let r = q / p;
                        if p < 0.0 {
                            if r > t0 {
                                t0 = r;
                            }
                        } else if r < t1 {
                            t1 = r;
                        }
                    }
                }
                t0 < t1
            }
            Shape::Circle { c, r } => segment_point_distance(a, b, c) < r,
            Shape::Poly { v, n } => {
                let k = n as usize;
                // Cyrus-Beck clipping against the open polygon: a + t d is inside where it is
                // strictly left of every counter-clockwise side.
                let d = b.minus(a);
                let (mut t0, mut t1) = (0.0f32, 1.0f32);
                for i in 0..k {
                    let (p, e) = (v[i], v[(i + 1) % k].minus(v[i]));
                    let (num, den) = (cross(e, a.minus(p)), cross(e, d));
                    if den == 0.0 {
                        if num <= 0.0 {
                            return false;
                        }
                    } else {
                        let r = -num / den;
                        if den > 0.0 {
                            if r > t0 {
                                t0 = r;
                            }
                        } else if r < t1 {
                            t1 = r;
                        }
                    }
                }
                t0 < t1
            }
        }
    }
}

/// Whether the segment `a`–`b` lies wholly on or outside one side of the box `[x0, y0, x1, y1]`
/// (so it cannot pass through the interior of a shape inside that box). Symmetric in `a`, `b`.
#[inline(always)]
fn misses_box(a: Pt, b: Pt, [x0, y0, x1, y1]: [f32; 4]) -> bool {
    a.x.max(b.x) <= x0 || a.x.min(b.x) >= x1 || a.y.max(b.y) <= y0 || a.y.min(b.y) >= y1
}

/// The endpoints in a canonical order (lexicographic on `(x, y)`), so that tests computed on
/// them do not depend on which end was given first.
#[inline]
fn canonical(a: Pt, b: Pt) -> (Pt, Pt) {
    if (a.x, a.y) <= (b.x, b.y) {
        (a, b)
    } else {
        (b, a)
    }
}

/// Distance from point `p` to the segment `a`–`b`.
#[inline]
pub fn segment_point_distance(a: Pt, b: Pt, p: Pt) -> f32 {
    let d = b.minus(a);
    let l2 = d.dot(d);
    let t = if l2 > 0.0 {
        (p.minus(a).dot(d) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a.plus(d.scale(t)).dist(p)
}

/// Edge-to-edge distance between two round bases (centres `a`, `b`, radii `ra`, `rb`), never
/// below 0.
#[inline]
pub fn edge_distance(a: Pt, ra: f32, b: Pt, rb: f32) -> f32 {
    (a.dist(b) - ra - rb).max(0.0)
}

/// Whether two round bases (centres `a`, `b`, radii `ra`, `rb`) overlap by more than `tol`
/// inches: their centres closer than the radii's sum less `tol`. [`EPS`] for an encounter's
/// starting bases and a summoned fateling's place (bases in contact, rounded to hundredths, do
/// not overlap); a position allows the slack of the lab's moves.
#[inline]
pub fn bases_overlap(a: Pt, ra: f32, b: Pt, rb: f32, tol: f32) -> bool {
    a.dist(b) < ra + rb - tol
}

/// The index of the first of `obstacles` that a round base of radius `r` centred at `p` reaches
/// into by more than `tol` inches (`p` inside the obstacle grown by `r - tol`, the keep-out the
/// moves route around), if any: a base ends every move clear of obstacles (rulebook, Aspects).
pub fn obstacle_under(p: Pt, r: f32, obstacles: &[Shape], tol: f32) -> Option<usize> {
    obstacles
        .iter()
        .position(|o| o.inflate(r - tol).contains(p))
}

/// Whether `a` and `b` see each other: the segment between the centres passes through no
/// obstacle's interior. Symmetric by construction (see [`Shape::blocks_segment`]).
#[inline]
pub fn line_of_sight(a: Pt, b: Pt, obstacles: &[Shape]) -> bool {
    !obstacles.iter().any(|o| o.blocks_segment(a, b))
}

/// [`line_of_sight`] with each shape's bounding box computed beforehand (`boxes[k]` is
/// `shapes[k].bbox()`; both the same length): the same answer, the boxes tested in one tight
/// loop before any exact test. What [`Nav::clear`] and an encounter's sight
/// (`Encounter::sight`) run.
#[inline]
pub fn clear_of(a: Pt, b: Pt, shapes: &[Shape], boxes: &[[f32; 4]]) -> bool {
    let (lo, hi) = (
        Pt::new(a.x.min(b.x), a.y.min(b.y)),
        Pt::new(a.x.max(b.x), a.y.max(b.y)),
    );
    let n = boxes.len().min(shapes.len());
    let (shapes, boxes) = (&shapes[..n], &boxes[..n]);
    for k in 0..n {
        let bx = &boxes[k];
        // One branch for the four sides.
        let misses = (hi.x <= bx[0]) | (lo.x >= bx[2]) | (hi.y <= bx[1]) | (lo.y >= bx[3]);
        if !misses && shapes[k].blocks_segment_in_box(a, b) {
            return false;
        }
    }
    true
}

/// Whether a target (centre `t`, base radius `tr`) that `shooter` can see is partly hidden by
/// an obstacle within 1 inch of its base (Shooting: "+1 if the target is within 1 inch of an
/// obstacle that partially hides her"): some obstacle within 1 inch of the base blocks the sight
/// line from the shooter's centre to one of the two points of the base's rim at right angles to
/// the line of fire (CONTENT.md, "Cover").
pub fn partly_hidden(shooter: Pt, t: Pt, tr: f32, obstacles: &[Shape]) -> bool {
    let d = t.minus(shooter).unit();
    let n = Pt::new(-d.y, d.x).scale(tr);
    let (l, r) = (t.plus(n), t.minus(n));
    obstacles.iter().any(|o| {
        o.distance(t) - tr <= 1.0 + EPS
            && (o.blocks_segment(shooter, l) || o.blocks_segment(shooter, r))
    })
}

/// A visibility graph for models of one base radius on one table (see the module docs).
#[derive(Clone, Debug)]
pub struct Nav {
    /// The base radius this graph is for, in inches.
    pub radius: f32,
    /// Table width and height in inches.
    pub table: (f32, f32),
    /// Obstacles grown by the radius (minus [`EPS`]): a centre may not enter them.
    pub grown: Vec<Shape>,
    /// Each grown obstacle's bounding box ([`Shape::bbox`]), computed once: [`Nav::clear`]
    /// rejects a segment against all of them before any exact test.
    pub boxes: Vec<[f32; 4]>,
    /// The nodes: points just outside the grown obstacles, on the table.
    pub nodes: Vec<Pt>,
    /// Shortest route lengths between nodes (`n × n`, row-major; `f32::INFINITY` if none).
    pub dist: Vec<f32>,
    /// The next node on the shortest route from `i` to `j` (`n × n`; `u8::MAX` if none).
    pub next: Vec<u8>,
    /// A number no other graph built in this process has (clones share it): the key of the
    /// per-thread memo of which nodes see a goal. The fields above are not to be changed after
    /// [`Nav::build`].
    id: u64,
}

/// Graphs built so far in this process (the source of [`Nav`]'s `id`).
static NAVS_BUILT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many goals the per-thread memo remembers (round robin).
const GOAL_SIGHT_SLOTS: usize = 8;

/// One remembered goal: the graph, the goal's coordinates (bits), each node's distance to it,
/// and which nodes see it, each tested only when a route search first needs it.
#[derive(Copy, Clone)]
struct GoalSight {
    key: (u64, u32, u32),
    /// Per node: whether it sees the goal ([`UNTESTED`], [`SEES`] or [`HIDDEN`]).
    seen: [u8; MAX_NODES],
    /// Per node: its distance to the goal (the last leg of a route through it).
    last: [f32; MAX_NODES],
}

/// [`GoalSight::seen`]: the sight test of this node has not been made yet.
const UNTESTED: u8 = 0;
/// [`GoalSight::seen`]: the node sees the goal.
const SEES: u8 = 1;
/// [`GoalSight::seen`]: the node does not see the goal.
const HIDDEN: u8 = 2;

impl GoalSight {
    /// Whether node `j` of `nav` sees the goal `b` (this slot's goal), tested on first need.
    #[inline]
    fn sees(&mut self, nav: &Nav, j: usize, b: Pt) -> bool {
        remembered_sight(&mut self.seen[j], || nav.clear(nav.nodes[j], b))
    }
}

/// A sight test remembered in `seen` ([`UNTESTED`], [`SEES`] or [`HIDDEN`]): `test` runs only
/// the first time.
#[inline]
fn remembered_sight(seen: &mut u8, test: impl FnOnce() -> bool) -> bool {
    match *seen {
        SEES => true,
        HIDDEN => false,
        _ => {
            let s = test();
            *seen = if s { SEES } else { HIDDEN };
            s
        }
    }
}

/// The per-thread memo of goal sight: a move's goal is often the goal of a move before (an
/// objective, a patrol point, a hiding node, the Scoundrel every fateling walks toward), and
/// which nodes see it is half of a route search. A pure cache: a route is the same with or
/// without it.
struct GoalSights {
    slots: [GoalSight; GOAL_SIGHT_SLOTS],
    next: usize,
}

/// How many starts the per-thread memo of [`StartReach`] remembers (round robin).
const START_SLOTS: usize = 8;

/// How many routes from one start are searched directly before its [`StartReach`] is computed
/// (a reach costs a sight test to every node, paid back only by many routes from the start).
const DIRECT_ROUTES: u8 = 2;

/// One remembered start of routes: the graph, the start's coordinates (bits), which nodes the
/// start sees and how far they are, and per node the length of the shortest route from the
/// start to it (straight to a node the start sees, then along the graph). A greedy look-ahead
/// moves the Scoundrel from one place toward a dozen goals, and the fate phases it plays start
/// each fateling from the same place: the routes from a start share this half of the search.
#[derive(Copy, Clone)]
struct StartReach {
    key: (u64, u32, u32),
    /// Bit `i`: the start sees node `i`.
    sees: u128,
    /// Per node: its distance from the start.
    first_leg: [f32; MAX_NODES],
    /// Per node: the shortest route's length from the start to it (`INFINITY`: none).
    reach: [f32; MAX_NODES],
}

/// The per-thread memo of [`StartReach`]: a pure cache (a route is the same with or without it).
struct StartReaches {
    slots: [StartReach; START_SLOTS],
    next: usize,
    /// The last starts routed from without a slot, with how many routes from each were
    /// searched directly (the route after [`DIRECT_ROUTES`] of them fills a slot).
    seen: [((u64, u32, u32), u8); START_SLOTS],
    next_seen: usize,
}

impl StartReaches {
    /// The reach from `a` on `nav`: remembered, or computed now when [`DIRECT_ROUTES`] routes
    /// from `a` were searched directly before (`a` one of the last [`START_SLOTS`] starts
    /// seen); `None` until then (a start routed from once or twice, as in random play, where a
    /// fateling stopped by a base tries again from the same place, is cheaper searched
    /// directly).
    #[inline]
    fn get(&mut self, nav: &Nav, a: Pt) -> Option<&StartReach> {
        let key = (nav.id, a.x.to_bits(), a.y.to_bits());
        let slot = match self.slots.iter().position(|s| s.key == key) {
            Some(s) => s,
            None => match self.seen.iter().position(|s| s.0 == key) {
                None => {
                    self.seen[self.next_seen] = (key, 1);
                    self.next_seen = (self.next_seen + 1) % START_SLOTS;
                    return None;
                }
                Some(k) if self.seen[k].1 < DIRECT_ROUTES => {
                    self.seen[k].1 += 1;
                    return None;
                }
                Some(_) => {
                    let s = self.next;
                    self.next = (s + 1) % START_SLOTS;
                    let r = &mut self.slots[s];
                    r.key = key;
                    r.sees = 0;
                    let n = nav.nodes.len();
                    r.reach[..n].fill(f32::INFINITY);
                    for (i, &p) in nav.nodes.iter().enumerate() {
                        r.first_leg[i] = a.dist(p);
                        if !nav.clear(a, p) {
                            continue;
                        }
                        r.sees |= 1 << i;
                        let first = r.first_leg[i];
                        let row = &nav.dist[i * n..i * n + n];
                        for (reach, &via) in r.reach[..n].iter_mut().zip(row) {
                            *reach = reach.min(first + via);
                        }
                    }
                    s
                }
            },
        };
        Some(&self.slots[slot])
    }
}

/// The per-thread memos of route searches: goal sight ([`GoalSights`]) and start reach
/// ([`StartReaches`]), in one cell so a route borrows both at once.
struct RouteMemo {
    goals: GoalSights,
    starts: StartReaches,
}

thread_local! {
    static ROUTE_MEMO: std::cell::RefCell<RouteMemo> = const {
        std::cell::RefCell::new(RouteMemo {
            goals: GoalSights {
                slots: [GoalSight {
                    key: (u64::MAX, 0, 0),
                    seen: [UNTESTED; MAX_NODES],
                    last: [0.0; MAX_NODES],
                }; GOAL_SIGHT_SLOTS],
                next: 0,
            },
            starts: StartReaches {
                slots: [StartReach {
                    key: (u64::MAX, 0, 0),
                    sees: 0,
                    first_leg: [0.0; MAX_NODES],
                    reach: [0.0; MAX_NODES],
                }; START_SLOTS],
                next: 0,
                seen: [((u64::MAX, 0, 0), 0); START_SLOTS],
                next_seen: 0,
            },
        })
    };
}

/// The most nodes a [`Nav`] holds (routes are stored as `u8` indices).
pub const MAX_NODES: usize = 128;

impl Nav {
    /// Builds the graph for bases of radius `radius` on a `table` (width, height) with
    /// `obstacles`. Nodes sit 0.06 inch outside the grown obstacles (corners of rectangles and
    /// polygons; an octagon circumscribing each circle); nodes off the table (closer than `radius` to an
    /// edge) or inside another grown obstacle are dropped, and at most [`MAX_NODES`] are kept.
    pub fn build(table: (f32, f32), obstacles: &[Shape], radius: f32) -> Nav {
        let grown: Vec<Shape> = obstacles.iter().map(|o| o.inflate(radius - EPS)).collect();
        let mut nodes = Vec::new();
        for o in obstacles {
            match o.inflate(radius + 0.06) {
                Shape::Rect { x0, y0, x1, y1 } => {
                    nodes.extend([
                        Pt::new(x0, y0),
                        Pt::new(x1, y0),
                        Pt::new(x1, y1),
                        Pt::new(x0, y1),
                    ]);
                }
                Shape::Poly { v, n } => nodes.extend_from_slice(&v[..n as usize]),
                Shape::Circle { c, r } => {
                    let big = r / (std::f32::consts::PI / 8.0).cos();
                    for k in 0..8 {
                        let a = k as f32 * std::f32::consts::PI / 4.0;
                        nodes.push(c.plus(Pt::new(a.cos(), a.sin()).scale(big)));
                    }
                }
            }
        }
        let on_table = |p: Pt| {
            p.x >= radius && p.y >= radius && p.x <= table.0 - radius && p.y <= table.1 - radius
        };
        nodes.retain(|&p| on_table(p) && !grown.iter().any(|g| g.contains(p)));
        nodes.truncate(MAX_NODES);
        Nav::with_nodes(table, grown, nodes, radius)
    }

    /// The graph on the given `nodes` (at most [`MAX_NODES`]) around obstacles already grown
    /// by the base radius `radius` (a centre may not enter them): an edge between two nodes
    /// whose straight segment is clear, and every pair's shortest route along the edges. What
    /// [`Nav::build`] does after placing the nodes; public so that a test can place nodes at
    /// exact coordinates (routes of exactly equal length).
    ///
    /// # Panics
    /// When there are more than [`MAX_NODES`] nodes.
    pub fn with_nodes(table: (f32, f32), grown: Vec<Shape>, nodes: Vec<Pt>, radius: f32) -> Nav {
        assert!(nodes.len() <= MAX_NODES, "at most {MAX_NODES} nodes");
        let n = nodes.len();
        let mut dist = vec![f32::INFINITY; n * n];
        let mut next = vec![u8::MAX; n * n];
        for i in 0..n {
            dist[i * n + i] = 0.0;
            next[i * n + i] = i as u8;
            for j in 0..n {
                if i != j && !grown.iter().any(|g| g.blocks_segment(nodes[i], nodes[j])) {
                    dist[i * n + j] = nodes[i].dist(nodes[j]);
                    next[i * n + j] = j as u8;
                }
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    let via = dist[i * n + k] + dist[k * n + j];
                    if via < dist[i * n + j] {
                        dist[i * n + j] = via;
                        next[i * n + j] = next[i * n + k];
                    }
                }
            }
        }
        let boxes = grown.iter().map(|g| g.bbox()).collect();
        let id = NAVS_BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Nav {
            id,
            radius,
            table,
            grown,
            boxes,
            nodes,
            dist,
            next,
        }
    }

    /// Whether a centre may move straight from `a` to `b` without entering a grown obstacle.
    #[inline]
    pub fn clear(&self, a: Pt, b: Pt) -> bool {
        clear_of(a, b, &self.grown, &self.boxes)
    }

    /// Whether a base centred at `p` stands clear of every obstacle and on the table.
    pub fn fits(&self, p: Pt) -> bool {
        let r = self.radius - EPS;
        p.x >= r
            && p.y >= r
            && p.x <= self.table.0 - r
            && p.y <= self.table.1 - r
            && !self.grown.iter().any(|g| g.contains(p))
    }

    /// `p` moved onto the table (its base wholly on it).
    pub fn clamp(&self, p: Pt) -> Pt {
        let r = self.radius;
        Pt::new(
            p.x.clamp(r, (self.table.0 - r).max(r)),
            p.y.clamp(r, (self.table.1 - r).max(r)),
        )
    }

    /// The shortest route from `a` to `b`: its length and (first node, last node) (`None`
    /// when the straight segment is clear; `(INFINITY, None)` when there is no route). Through
    /// the nodes, a route's length is `(|a i| + dist(i, j)) + |j b|` (in that order, `f32`) for
    /// a first node `i` that `a` sees and a last node `j` that sees `b`; the route is the
    /// shortest, and among equally long ones the least `(i, j)`.
    fn route(&self, a: Pt, b: Pt) -> (f32, Option<(u8, u8)>) {
        if self.clear(a, b) {
            return (a.dist(b), None);
        }
        ROUTE_MEMO.with_borrow_mut(|memo| {
            let RouteMemo {
                goals: cache,
                starts,
            } = memo;
            let key = (self.id, b.x.to_bits(), b.y.to_bits());
            let slot = match cache.slots.iter().position(|g| g.key == key) {
                Some(s) => s,
                None => {
                    // A new goal: each node's distance to it; sight tested on first need.
                    let s = cache.next;
                    cache.next = (s + 1) % GOAL_SIGHT_SLOTS;
                    let g = &mut cache.slots[s];
                    g.key = key;
                    let n = self.nodes.len();
                    g.seen[..n].fill(UNTESTED);
                    for (last, &q) in g.last[..n].iter_mut().zip(&self.nodes) {
                        *last = q.dist(b);
                    }
                    s
                }
            };
            let g = &mut cache.slots[slot];
            match starts.get(self, a) {
                Some(from) => {
                    let reach = &from.reach;
                    let len = self.shortest(g, b, reach);
                    let sees = from.sees;
                    let hop =
                        self.least_hop(len, g, b, reach, &from.first_leg, |i| sees & (1 << i) != 0);
                    (len, hop)
                }
                None => self.route_to_last(a, b, g),
            }
        })
    }

    /// The least `reach[j] + |j b|` over the nodes `j` that see `b` (`g`'s goal), where
    /// `reach[j]` is the shortest route's length from the start to node `j` (`INFINITY` if
    /// none); a node's sight of `b` is tested only when its sum is less than the least so far.
    #[inline]
    fn shortest(&self, g: &mut GoalSight, b: Pt, reach: &[f32]) -> f32 {
        let mut best = f32::INFINITY;
        for (j, &r) in reach[..self.nodes.len()].iter().enumerate() {
            let total = r + g.last[j];
            if total < best && g.sees(self, j, b) {
                best = total;
            }
        }
        best
    }

    /// The least (first node, last node) of the routes of length `len` (see [`Nav::route`]),
    /// given each node's `reach` as in [`Nav::shortest`], `first_leg[i] = |a i|` and whether
    /// the start sees node `i`. `None` when `len` is infinite.
    fn least_hop(
        &self,
        len: f32,
        g: &mut GoalSight,
        b: Pt,
        reach: &[f32],
        first_leg: &[f32],
        mut start_sees: impl FnMut(usize) -> bool,
    ) -> Option<(u8, u8)> {
        if !len.is_finite() {
            return None;
        }
        let n = self.nodes.len();
        let mut hop: Option<(u8, u8)> = None;
        for (j, &r) in reach[..n].iter().enumerate() {
            let to_goal = g.last[j];
            if r + to_goal != len || !g.sees(self, j, b) {
                continue;
            }
            let below = hop.map_or(n, |(i, _)| i as usize);
            for (i, &leg) in first_leg[..below].iter().enumerate() {
                if leg + self.dist[i * n + j] + to_goal == len && start_sees(i) {
                    hop = Some((i as u8, j as u8));
                    break;
                }
            }
        }
        hop
    }

    /// [`Nav::route`] from a start without a [`StartReach`] (routed from for the first time),
    /// last node by last node: for each node `j` that sees `b`, its reach (the least
    /// `|a i| + dist(i, j)` over the nodes `i` that `a` sees), then
    /// [`least_hop`](Nav::least_hop). The nodes `j` are taken in ascending order of their
    /// straight line `|a j| + |j b|`, and the search ends at the first whose line exceeds the
    /// best so far by more than 0.001 inch (far beyond the rounding of these sums), before its
    /// sight of `b` is tested; `a`'s sight of a node is tested only where it would shorten a
    /// reach.
    fn route_to_last(&self, a: Pt, b: Pt, g: &mut GoalSight) -> (f32, Option<(u8, u8)>) {
        let n = self.nodes.len();
        let mut first_leg = [0.0f32; MAX_NODES];
        for (d, &p) in first_leg[..n].iter_mut().zip(&self.nodes) {
            *d = a.dist(p);
        }
        let mut seen = [UNTESTED; MAX_NODES];
        let mut start_sees =
            |i: usize| remembered_sight(&mut seen[i], || self.clear(a, self.nodes[i]));
        // A node's straight line `|a j| + |j b|` bounds every route through it from below.
        // The nodes of least bound are tried first until a route is found, then the others in
        // node order, each skipped when its bound exceeds the best so far: every node that
        // could give the shortest route is tried, so the order changes no value (a reach is a
        // minimum, and `len` the least of the reaches tried).
        let mut bound = [f32::INFINITY; MAX_NODES];
        for (j, lb) in bound[..n].iter_mut().enumerate() {
            *lb = first_leg[j] + g.last[j];
        }
        let mut reach = [f32::INFINITY; MAX_NODES];
        let mut len = f32::INFINITY;
        let mut try_last = |j: usize, g: &mut GoalSight| {
            if !g.sees(self, j, b) {
                return f32::INFINITY;
            }
            let mut r = f32::INFINITY;
            for (i, &leg) in first_leg[..n].iter().enumerate() {
                let total = leg + self.dist[i * n + j];
                if total < r && start_sees(i) {
                    r = total;
                }
            }
            r
        };
        while !len.is_finite() {
            let (mut j, mut least) = (usize::MAX, f32::INFINITY);
            for (k, &lb) in bound[..n].iter().enumerate() {
                if lb < least {
                    (j, least) = (k, lb);
                }
            }
            if j == usize::MAX {
                break;
            }
            // Tried: out of the next picks and of the sweep below (whose `len` is finite).
            bound[j] = f32::INFINITY;
            reach[j] = try_last(j, g);
            len = len.min(reach[j] + g.last[j]);
        }
        // An infinite `len` here means every node was tried.
        for j in 0..n {
            if !len.is_finite() || bound[j] > len + 1e-3 {
                continue;
            }
            reach[j] = try_last(j, g);
            len = len.min(reach[j] + g.last[j]);
        }
        let hop = self.least_hop(len, g, b, &reach, &first_leg, start_sees);
        (len, hop)
    }

    /// The length of the shortest route from `a` to `b` around obstacles (`INFINITY` if none).
    pub fn route_length(&self, a: Pt, b: Pt) -> f32 {
        self.route(a, b).0
    }

    /// Moves a base of this graph's radius from `from` toward `to` along the shortest route, at
    /// most `max` inches, stopping where it would first touch one of `others` (other models'
    /// centres and radii: never through a model). When no route exists it does not move.
    /// Returns the end point (not yet rounded to a [`Pos`]).
    pub fn walk(&self, from: Pt, to: Pt, max: f32, others: &[(Pt, f32)]) -> Pt {
        let (len, hop) = self.route(from, to);
        if !len.is_finite() {
            return from;
        }
        let mut left = max;
        let mut at = from;
        let mut leg_end = match hop {
            None => to,
            Some((i, _)) => self.nodes[i as usize],
        };
        let mut cur = hop;
        loop {
            let (p, stopped) = advance(at, leg_end, left, self.radius, others);
            left -= at.dist(p);
            at = p;
            if stopped || left <= 1e-4 || leg_end == to {
                return at;
            }
            // Next leg.
            match cur {
                None => return at,
                Some((i, j)) if i == j => {
                    leg_end = to;
                    cur = None;
                }
                Some((i, j)) => {
                    let n = self.nodes.len();
                    let k = self.next[i as usize * n + j as usize];
                    leg_end = self.nodes[k as usize];
                    cur = Some((k, j));
                }
            }
        }
    }

    /// Moves straight from `from` toward `to` at most `max` inches over or through obstacles
    /// (flight, ethereal), stopping before touching another model, and then backing along the
    /// line until the base is clear of every obstacle ("she must finish her move clear").
    pub fn fly(&self, from: Pt, to: Pt, max: f32, others: &[(Pt, f32)]) -> Pt {
        let (end, _) = advance(from, to, max, self.radius, others);
        let back = from.minus(end);
        let len = back.len();
        let u = back.unit();
        let mut p = end;
        let mut k = 0u32;
        while !self.fits(p) && (k as f32) * 0.05 < len {
            k += 1;
            p = end.plus(u.scale((k as f32 * 0.05).min(len)));
        }
        if self.fits(p) { p } else { from }
    }
}

/// Moves from `a` toward `b` at most `max` inches, stopping where a base of radius `r` would
/// first touch one of `others`. Returns the point and whether a model stopped it.
fn advance(a: Pt, b: Pt, max: f32, r: f32, others: &[(Pt, f32)]) -> (Pt, bool) {
    let d = b.minus(a);
    let l = d.len();
    if l < 1e-6 {
        return (a, false);
    }
    let u = d.scale(1.0 / l);
    let mut t_end = l.min(max);
    let mut stopped = false;
    for &(c, rc) in others {
        let rr = r + rc;
        // Solve |a + u t - c| = rr for the first t >= 0 while approaching.
        let m = a.minus(c);
        let bq = m.dot(u);
        if bq >= 0.0 {
            continue; // moving away from (or past) it
        }
        let cq = m.dot(m) - rr * rr;
        let disc = bq * bq - cq;
        if disc < 0.0 {
            continue;
        }
        let t = (-bq - disc.sqrt()).max(0.0);
        if t < t_end {
            t_end = t;
            stopped = true;
        }
    }
    (a.plus(u.scale(t_end)), stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
        Shape::Rect { x0, y0, x1, y1 }
    }

    fn poly(c: &[(f32, f32)]) -> Shape {
        let pts: Vec<Pt> = c.iter().map(|&(x, y)| Pt::new(x, y)).collect();
        Shape::convex(&pts).expect("convex")
    }

    #[test]
    fn a_convex_polygon_needs_three_to_eight_corners_turning_one_way() {
        // Clockwise input is stored counter-clockwise.
        let Some(Shape::Poly { v, n }) =
            Shape::convex(&[Pt::new(0.0, 0.0), Pt::new(0.0, 2.0), Pt::new(2.0, 0.0)])
        else {
            panic!("a triangle is convex")
        };
        assert_eq!(n, 3);
        assert_eq!(
            &v[..3],
            &[Pt::new(2.0, 0.0), Pt::new(0.0, 2.0), Pt::new(0.0, 0.0)]
        );
        let bad: [&[(f32, f32)]; 5] = [
            &[(0.0, 0.0), (1.0, 0.0)], // two corners
            &[(0.0, 0.0), (2.0, 0.0), (1.0, 0.5), (2.0, 2.0), (0.0, 2.0)], // a notch
            &[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0), (0.0, 2.0)], // a bow tie
            &[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (1.0, 1.0)], // a straight corner
            &[(0.0, 0.0), (4.0, 0.0), (0.0, 3.0), (4.0, 3.0), (2.0, -1.0)], // a pentagram-like star
        ];
        for c in bad {
            let pts: Vec<Pt> = c.iter().map(|&(x, y)| Pt::new(x, y)).collect();
            assert!(Shape::convex(&pts).is_none(), "{c:?}");
        }
        let nine: Vec<Pt> = (0..9)
            .map(|k| {
                let a = k as f32 * std::f32::consts::TAU / 9.0;
                Pt::new(a.cos(), a.sin())
            })
            .collect();
        assert!(Shape::convex(&nine).is_none());
        assert!(Shape::convex(&nine[..8]).is_some());
    }

    #[test]
    fn a_polygon_blocks_sight_through_its_interior_only() {
        // A diamond centred at (5, 5), corners 2 inches out.
        let d = [poly(&[(5.0, 3.0), (7.0, 5.0), (5.0, 7.0), (3.0, 5.0)])];
        assert!(!line_of_sight(Pt::new(0.0, 5.0), Pt::new(10.0, 5.0), &d));
        assert!(!line_of_sight(Pt::new(0.0, 0.0), Pt::new(10.0, 10.0), &d));
        // Through the corner only, and along a side: grazing does not block.
        assert!(line_of_sight(Pt::new(0.0, 7.0), Pt::new(10.0, 7.0), &d));
        assert!(line_of_sight(Pt::new(2.0, 4.0), Pt::new(6.0, 8.0), &d));
        // Past the corner, inside the bounding box.
        assert!(line_of_sight(Pt::new(3.0, 3.0), Pt::new(3.5, 3.2), &d));
        assert!(d[0].contains(Pt::new(5.0, 5.0)) && !d[0].contains(Pt::new(3.2, 3.2)));
        assert!((d[0].distance(Pt::new(9.0, 5.0)) - 2.0).abs() < 1e-6);
        assert_eq!(d[0].distance(Pt::new(5.5, 5.5)), 0.0);
        assert!((d[0].extent(Pt::new(1.0, 0.0)) - 2.0).abs() < 1e-6);
        // Grown by 1: each side moves out 1 inch, so the corner moves out sqrt(2).
        let Shape::Poly { v, .. } = d[0].inflate(1.0) else {
            panic!()
        };
        assert!(
            (v[0].dist(Pt::new(5.0, 3.0 - std::f32::consts::SQRT_2))) < 1e-5,
            "{v:?}"
        );
    }

    #[test]
    fn a_polygon_with_a_rectangles_corners_is_that_rectangle() {
        let r = rect(2.0, 3.0, 7.0, 4.5);
        let p = poly(&[(2.0, 3.0), (7.0, 3.0), (7.0, 4.5), (2.0, 4.5)]);
        assert_eq!(r.centre(), p.centre());
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 40) as f32 / (1u64 << 24) as f32 * 10.0
        };
        let mut blocked = 0;
        for _ in 0..20_000 {
            let (a, b) = (Pt::new(next(), next()), Pt::new(next(), next()));
            let (x, y) = (r.blocks_segment(a, b), p.blocks_segment(a, b));
            blocked += u32::from(x);
            if x != y {
                // Only where rounding decides: the segment grazes the outline.
                assert!(
                    r.inflate(1e-4).blocks_segment(a, b) && !r.inflate(-1e-4).blocks_segment(a, b),
                    "{a:?} {b:?}: rect {x}, polygon {y}"
                );
            }
            assert_eq!(r.contains(a), p.contains(a), "{a:?}");
            assert!((r.distance(a) - p.distance(a)).abs() < 1e-5, "{a:?}");
        }
        assert!(blocked > 1000, "{blocked}");
        let Shape::Poly { v, .. } = p.inflate(0.5) else {
            panic!()
        };
        assert_eq!(
            &v[..4],
            &[
                Pt::new(1.5, 2.5),
                Pt::new(7.5, 2.5),
                Pt::new(7.5, 5.0),
                Pt::new(1.5, 5.0)
            ]
        );
    }

    #[test]
    fn a_walk_goes_around_a_polygon() {
        let tri = [poly(&[(4.0, 3.0), (6.0, 6.0), (4.0, 9.0)])];
        let nav = Nav::build((12.0, 12.0), &tri, 0.5);
        assert_eq!(nav.nodes.len(), 3);
        let (a, b) = (Pt::new(2.0, 6.0), Pt::new(8.0, 6.0));
        assert!(!nav.clear(a, b));
        let len = nav.route_length(a, b);
        assert!(len > 6.5 && len < 12.0, "{len}");
        let q = nav.walk(a, b, 20.0, &[]);
        assert!(q.dist(b) < 1e-3, "{q:?}");
        let q = nav.walk(a, b, 3.0, &[]);
        assert!(nav.fits(q) && (a.dist(q) - 3.0).abs() < 1e-3, "{q:?}");
    }

    #[test]
    fn a_wall_blocks_sight_and_grazing_does_not() {
        let wall = [rect(5.0, 0.0, 6.0, 10.0)];
        assert!(!line_of_sight(Pt::new(0.0, 5.0), Pt::new(10.0, 5.0), &wall));
        assert!(line_of_sight(
            Pt::new(0.0, 11.0),
            Pt::new(10.0, 11.0),
            &wall
        ));
        // Along the wall's top edge: touching, not passing through.
        assert!(line_of_sight(
            Pt::new(0.0, 10.0),
            Pt::new(10.0, 10.0),
            &wall
        ));
        let pillar = [Shape::Circle {
            c: Pt::new(5.0, 5.0),
            r: 1.0,
        }];
        assert!(!line_of_sight(
            Pt::new(0.0, 5.5),
            Pt::new(10.0, 5.5),
            &pillar
        ));
        assert!(line_of_sight(
            Pt::new(0.0, 6.5),
            Pt::new(10.0, 6.5),
            &pillar
        ));
    }

    /// A segment that touches an obstacle at one point only (a rectangle's or a polygon's
    /// corner, a circle's tangent point) grazes it and does not block; each case's clipping
    /// interval closes to that point exactly (`t0 == t1` at 0.5, or a distance equal to the
    /// radius), in exact `f32` arithmetic.
    #[test]
    fn touching_a_corner_or_a_tangent_point_does_not_block() {
        let square = rect(0.0, 0.0, 2.0, 2.0);
        assert!(!square.blocks_segment(Pt::new(-1.0, 1.0), Pt::new(1.0, 3.0)));
        assert!(square.blocks_segment(Pt::new(-1.0, 0.9), Pt::new(1.0, 2.9)));
        let tri = poly(&[(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)]);
        assert!(!tri.blocks_segment(Pt::new(3.0, -1.0), Pt::new(5.0, 1.0)));
        assert!(tri.blocks_segment(Pt::new(2.9, -1.0), Pt::new(4.9, 1.0)));
        let round = Shape::Circle {
            c: Pt::new(0.0, 0.0),
            r: 5.0,
        };
        // Tangent at (3, 4), off the circle's bounding box.
        assert!(!round.blocks_segment(Pt::new(7.0, 1.0), Pt::new(-1.0, 7.0)));
        assert!(round.blocks_segment(Pt::new(6.9, 0.9), Pt::new(-1.1, 6.9)));
    }

    #[test]
    fn distances_are_edge_to_edge() {
        let d = edge_distance(Pt::new(0.0, 0.0), 0.5, Pt::new(3.0, 4.0), 1.0);
        assert!((d - 3.5).abs() < 1e-6, "{d}");
        assert_eq!(
            edge_distance(Pt::new(0.0, 0.0), 0.5, Pt::new(0.5, 0.0), 0.5),
            0.0
        );
    }

    #[test]
    fn cover_needs_an_obstacle_within_one_inch_that_hides_part_of_the_base() {
        let t = Pt::new(10.0, 5.0);
        // A low wall just in front of the target, below the sight line's centre.
        let near = [rect(8.5, 3.0, 9.0, 4.8)];
        assert!(line_of_sight(Pt::new(0.0, 5.0), t, &near));
        assert!(partly_hidden(Pt::new(0.0, 5.0), t, 0.5, &near));
        // The same wall 3 inches away from the base hides nothing within 1 inch.
        let far = [rect(5.5, 3.0, 6.0, 4.8)];
        assert!(!partly_hidden(Pt::new(0.0, 5.0), t, 0.5, &far));
        // Exactly 1 inch from the base's edge is within 1 inch; 1.02 inches is not (positions
        // are in hundredths, and the test allows EPS).
        let at_one = [rect(8.0, 3.0, 8.5, 5.0)];
        assert!(partly_hidden(Pt::new(0.0, 5.0), t, 0.5, &at_one));
        let beyond = [rect(8.0, 3.0, 8.48, 5.0)];
        assert!(!partly_hidden(Pt::new(0.0, 5.0), t, 0.5, &beyond));
    }

    /// `contains` is strict: a point on a rectangle's edge or on a circle is outside (a base
    /// may stand against an obstacle), a point just within is inside.
    #[test]
    fn contains_is_strict_on_every_edge_and_on_the_circle() {
        let r = rect(2.0, 3.0, 6.0, 5.0);
        for edge in [(2.0, 4.0), (6.0, 4.0), (4.0, 3.0), (4.0, 5.0)] {
            assert!(!r.contains(Pt::new(edge.0, edge.1)), "{edge:?}");
        }
        for within in [(2.01, 4.0), (5.99, 4.0), (4.0, 3.01), (4.0, 4.99)] {
            assert!(r.contains(Pt::new(within.0, within.1)), "{within:?}");
        }
        let round = Shape::Circle {
            c: Pt::new(10.0, 10.0),
            r: 3.0,
        };
        assert!(!round.contains(Pt::new(13.0, 10.0)), "on the circle");
        assert!(round.contains(Pt::new(12.5, 10.0)), "2.5 from the centre");
        assert!(round.contains(Pt::new(10.0, 10.0)), "the centre");
        assert!(!round.contains(Pt::new(12.2, 12.2)), "3.11 from the centre");
        let tri = poly(&[(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)]);
        assert!(!tri.contains(Pt::new(2.0, 0.0)), "on an edge");
        assert!(tri.contains(Pt::new(2.0, 0.01)), "just within");
    }

    /// The graph's nodes (Nav::build): a circle's 8 nodes circumscribe it at 0.06 inch beyond
    /// the base radius, at every 45 degrees; nodes closer than the base radius to a table
    /// edge are dropped; a centre may come within `EPS` of an obstacle, not closer.
    #[test]
    fn nodes_circumscribe_circles_stay_on_the_table_and_bases_touch_obstacles() {
        let c = Pt::new(10.0, 10.0);
        let nav = Nav::build((20.0, 20.0), &[Shape::Circle { c, r: 2.0 }], 0.5);
        assert_eq!(nav.nodes.len(), 8);
        let big = 2.56 / (std::f32::consts::PI / 8.0).cos();
        for (k, p) in nav.nodes.iter().enumerate() {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            let want = Pt::new(c.x + big * a.cos(), c.y + big * a.sin());
            assert!(p.dist(want) < 1e-4, "node {k}: {p:?}, not {want:?}");
        }
        // A wall against the right edge: its two right-hand corners are off the table.
        let nav = Nav::build((12.0, 12.0), &[rect(10.0, 4.0, 11.8, 6.0)], 0.5);
        assert_eq!(nav.nodes, vec![Pt::new(9.44, 3.44), Pt::new(9.44, 6.56)]);
        // The same against the top edge.
        let nav = Nav::build((12.0, 12.0), &[rect(4.0, 10.0, 6.0, 11.8)], 0.5);
        assert_eq!(nav.nodes, vec![Pt::new(3.44, 9.44), Pt::new(6.56, 9.44)]);
        // A base may stand against the wall (centre 0.5 from it), not 0.02 into it.
        let nav = Nav::build((12.0, 12.0), &[rect(5.0, 0.0, 6.0, 10.0)], 0.5);
        assert!(nav.fits(Pt::new(4.5, 5.0)));
        assert!(!nav.fits(Pt::new(4.52, 5.0)));
    }

    #[test]
    fn a_point_segment_measures_to_its_point() {
        let a = Pt::new(1.0, 1.0);
        assert_eq!(segment_point_distance(a, a, Pt::new(4.0, 5.0)), 5.0);
        assert_eq!(
            segment_point_distance(Pt::new(0.0, 0.0), Pt::new(4.0, 0.0), Pt::new(2.0, 3.0)),
            3.0
        );
    }

    #[test]
    fn positions_round_trip_through_text() {
        let p = Pos::from_pt(Pt::new(12.344, 0.5));
        assert_eq!(p, Pos { x: 1234, y: 50 });
        assert_eq!(p.to_string(), "(12.34,0.50)");
        assert_eq!(Pos::parse(&p.to_string()), Some(p));
        assert_eq!(Pos::parse("(1.5,2)"), Some(Pos { x: 150, y: 200 }));
        assert_eq!(Pos::parse("(1.555,2)"), None);
        assert_eq!(Pos::parse("(-1,2)"), None);
        assert_eq!(Pos::parse("(700,2)"), None);
    }

    #[test]
    fn a_walk_goes_around_a_wall_and_never_further_than_allowed() {
        let wall = [rect(5.0, 0.0, 6.0, 8.0)];
        let nav = Nav::build((12.0, 12.0), &wall, 0.5);
        let (a, b) = (Pt::new(2.0, 2.0), Pt::new(9.0, 2.0));
        assert!(!nav.clear(a, b));
        let len = nav.route_length(a, b);
        // Up past the wall's top corners and down: 7.0 + 2.12 + 7.0 inches, not the straight 7.
        assert!(len > 16.0 && len < 16.3, "{len}");
        let mut p = a;
        for _ in 0..10 {
            let q = nav.walk(p, b, 4.0, &[]);
            assert!(p.dist(q) <= 4.0 + 1e-3);
            assert!(nav.fits(q), "{q:?}");
            p = q;
        }
        assert!(p.dist(b) < 1e-3, "{p:?}");
    }

    #[test]
    fn a_walk_stops_at_base_contact_with_another_model() {
        let nav = Nav::build((24.0, 24.0), &[], 0.5);
        let q = nav.walk(
            Pt::new(2.0, 2.0),
            Pt::new(12.0, 2.0),
            10.0,
            &[(Pt::new(6.0, 2.0), 0.5)],
        );
        assert!((q.x - 5.0).abs() < 1e-3, "{q:?}");
        // A model whose base the path only touches (at 1 inch from the line of travel, the
        // two radii): she stops at that touch, base to base (exact in f32).
        let q = nav.walk(
            Pt::new(1.0, 2.0),
            Pt::new(11.0, 2.0),
            20.0,
            &[(Pt::new(6.0, 3.0), 0.5)],
        );
        assert_eq!(q, Pt::new(6.0, 2.0));
        // Half an hundredth further from the line, she passes it.
        let q = nav.walk(
            Pt::new(1.0, 2.0),
            Pt::new(11.0, 2.0),
            20.0,
            &[(Pt::new(6.0, 3.005), 0.5)],
        );
        assert_eq!(q, Pt::new(11.0, 2.0));
    }

    #[test]
    fn flying_ends_clear_of_obstacles() {
        let wall = [rect(5.0, 0.0, 6.0, 12.0)];
        let nav = Nav::build((12.0, 12.0), &wall, 0.5);
        // 4 inches from x=2 would end at x=6 inside the wall's keep-out: it backs off.
        let q = nav.fly(Pt::new(2.0, 6.0), Pt::new(11.0, 6.0), 4.0, &[]);
        assert!(nav.fits(q) && q.x < 4.6, "{q:?}");
        // 8 inches carries it over the wall.
        let q = nav.fly(Pt::new(2.0, 6.0), Pt::new(11.0, 6.0), 8.0, &[]);
        assert!(nav.fits(q) && q.x > 6.4, "{q:?}");
    }
}
