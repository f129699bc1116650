//! Property tests (proptest) of the Gods' tabletop geometry: line of sight is symmetric on
//! random segments and shapes (rectangles, circles, convex polygons), and a walk never goes further than allowed nor ends inside an
//! obstacle.

use proptest::prelude::*;
use sololab::games::gods::geometry::{Nav, Pt, Shape, line_of_sight};

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0.0f32..30.0, 0.0f32..30.0, 0.1f32..8.0, 0.1f32..8.0).prop_map(|(x, y, w, h)| {
            Shape::Rect {
                x0: x,
                y0: y,
                x1: x + w,
                y1: y + h,
            }
        }),
        (0.0f32..30.0, 0.0f32..30.0, 0.1f32..4.0).prop_map(|(x, y, r)| Shape::Circle {
            c: Pt::new(x, y),
            r
        }),
        // Convex polygons: 3 to 8 corners on a circle at increasing angles.
        (
            0.0f32..30.0,
            0.0f32..30.0,
            0.2f32..4.0,
            prop::collection::vec(0.05f32..1.0, 3..=8)
        )
            .prop_map(|(x, y, r, steps)| {
                let total: f32 = steps.iter().sum();
                let mut angle = 0.0f32;
                let corners: Vec<Pt> = steps
                    .iter()
                    .map(|s| {
                        angle += s / total * std::f32::consts::TAU * 0.999;
                        Pt::new(x + r * angle.cos(), y + r * angle.sin())
                    })
                    .collect();
                Shape::convex(&corners).unwrap_or(Shape::Circle {
                    c: Pt::new(x, y),
                    r,
                })
            }),
    ]
}

fn pt() -> impl Strategy<Value = Pt> {
    (0.0f32..36.0, 0.0f32..36.0).prop_map(|(x, y)| Pt::new(x, y))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn line_of_sight_is_symmetric(a in pt(), b in pt(), shapes in prop::collection::vec(shape(), 0..6)) {
        prop_assert_eq!(line_of_sight(a, b, &shapes), line_of_sight(b, a, &shapes));
        for s in &shapes {
            prop_assert_eq!(s.blocks_segment(a, b), s.blocks_segment(b, a));
        }
    }

    #[test]
    fn line_of_sight_along_axis_aligned_and_shared_endpoints_is_symmetric(
        x in 0.0f32..36.0, y0 in 0.0f32..36.0, y1 in 0.0f32..36.0,
        shapes in prop::collection::vec(shape(), 1..4)
    ) {
        let (a, b) = (Pt::new(x, y0), Pt::new(x, y1));
        prop_assert_eq!(line_of_sight(a, b, &shapes), line_of_sight(b, a, &shapes));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn walks_are_bounded_and_end_clear(shapes in prop::collection::vec(shape(), 0..4), a in pt(), b in pt(), max in 0.5f32..8.0) {
        let nav = Nav::build((36.0, 36.0), &shapes, 0.5);
        let a = nav.clamp(a);
        prop_assume!(nav.fits(a));
        let q = nav.walk(a, nav.clamp(b), max, &[]);
        prop_assert!(a.dist(q) <= max + 1e-3, "{:?} -> {:?}", a, q);
        prop_assert!(nav.fits(q), "ends inside an obstacle: {:?}", q);
    }
}

/// The route search by its definition, without speed-ups (every obstacle tested in turn, every
/// pair of a first node the start sees and a last node that sees the goal, no memo): the least
/// length `(|a i| + dist(i, j)) + |j b|`, and among equal lengths the least `(i, j)`.
fn reference_route(nav: &Nav, a: Pt, b: Pt) -> (f32, Option<(u8, u8)>) {
    let clear = |p: Pt, q: Pt| !nav.grown.iter().any(|g| g.blocks_segment(p, q));
    if clear(a, b) {
        return (a.dist(b), None);
    }
    let n = nav.nodes.len();
    let mut best = (f32::INFINITY, None);
    let to_b: Vec<(u8, f32)> = (0..n)
        .filter(|&j| clear(nav.nodes[j], b))
        .map(|j| (j as u8, nav.nodes[j].dist(b)))
        .collect();
    if to_b.is_empty() {
        return best;
    }
    for (i, &p) in nav.nodes.iter().enumerate() {
        let first = a.dist(p);
        if !clear(a, p) {
            continue;
        }
        let row = &nav.dist[i * n..i * n + n];
        for &(j, last) in &to_b {
            let total = first + row[j as usize] + last;
            if total < best.0 {
                best = (total, Some((i as u8, j)));
            }
        }
    }
    best
}

/// Checks `nav`'s route from `a` to `b` against [`reference_route`]: the same length to the
/// bit, and a short first step toward the same point (the goal or the reference's first node).
fn same_route_as_reference(nav: &Nav, a: Pt, b: Pt) -> Result<(), TestCaseError> {
    let (len, hop) = reference_route(nav, a, b);
    prop_assert_eq!(
        nav.route_length(a, b).to_bits(),
        len.to_bits(),
        "{:?} -> {:?}",
        a,
        b
    );
    if !len.is_finite() {
        prop_assert_eq!(nav.walk(a, b, 0.25, &[]), a);
        return Ok(());
    }
    let aim = hop.map_or(b, |(i, _)| nav.nodes[i as usize]);
    let d = aim.minus(a);
    let l = d.len();
    if l > 0.25 {
        let want = a.plus(d.scale(1.0 / l).scale(0.25));
        prop_assert_eq!(nav.walk(a, b, 0.25, &[]), want, "{:?} -> {:?}", a, b);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The route search's speed-ups (obstacle boxes, the direct search's skipped last nodes and
    /// sight from the start tested only where it could matter, the per-thread memos of goal
    /// sight and of a start's reach) change no route: starts and goals are drawn from small
    /// pools so the memos are hit, missed and overwritten.
    #[test]
    fn routes_are_the_reference_routes(
        shapes in prop::collection::vec(shape(), 1..6),
        starts in prop::collection::vec(pt(), 12),
        goals in prop::collection::vec(pt(), 10),
        picks in prop::collection::vec((0usize..12, 0usize..10), 40),
    ) {
        let nav = Nav::build((36.0, 36.0), &shapes, 0.5);
        for (s, g) in picks {
            same_route_as_reference(&nav, nav.clamp(starts[s]), nav.clamp(goals[g]))?;
        }
    }
}

/// The same on every shipped encounter's movement graphs, from and to points all over the table,
/// from starts routed from once (searched directly) and from a pool of starts each routed from
/// 20 times (the first two searched directly, then the start's reach remembered).
#[test]
fn routes_on_the_shipped_encounters_are_the_reference_routes() {
    let content = sololab::games::gods::content::builtin();
    let mut seed = 11u64;
    let mut next = |span: f32| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32 * span
    };
    let mut blocked = 0;
    for enc in &content.encounters {
        for nav in &enc.navs {
            let goals: Vec<Pt> = (0..12)
                .map(|_| nav.clamp(Pt::new(next(nav.table.0), next(nav.table.1))))
                .collect();
            let starts: Vec<Pt> = (0..10)
                .map(|_| nav.clamp(Pt::new(next(nav.table.0), next(nav.table.1))))
                .collect();
            for k in 0..400 {
                // Half the starts fresh (searched directly), half from a pool of 10 (routed
                // from again: from the third time the per-thread reach of the start is used).
                let a = if k % 2 == 0 {
                    nav.clamp(Pt::new(next(nav.table.0), next(nav.table.1)))
                } else {
                    starts[(k / 2) % starts.len()]
                };
                let b = goals[k % goals.len()];
                blocked += usize::from(!nav.clear(a, b));
                same_route_as_reference(nav, a, b).unwrap();
            }
        }
    }
    assert!(
        blocked > 500,
        "only {blocked} routes went around an obstacle"
    );
}

/// Routes of exactly equal length go through the least (first node, last node). Nodes at the
/// corners of the square (2,2)-(6,6), exact in `f32`: from its corner (2,2) to (8,8) the route
/// goes along the bottom edge (first node 0, last node 1) or the left edge (0, then 3), or
/// starts at node 1 or 3 itself, each `(0 + 4) + sqrt(40)` or `(4 + 0) + sqrt(40)` to the bit;
/// the least is (0, 1). A 5-inch walk shows which was taken: 4 inches along the bottom edge to
/// (6,2), then 1 inch toward (8,8). Checked on the 4-node graph and on the same graph padded
/// with 40 nodes far away (last nodes whose straight-line bound rules them out), from a fresh
/// start and the same start again (both searched directly), then twice more (its reach
/// remembered).
#[test]
fn equally_long_routes_go_through_the_least_first_and_last_nodes() {
    let square = Shape::Rect {
        x0: 2.0,
        y0: 2.0,
        x1: 6.0,
        y1: 6.0,
    };
    let corners = [(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)].map(|(x, y)| Pt::new(x, y));
    let (a, b) = (Pt::new(2.0, 2.0), Pt::new(8.0, 8.0));
    let want = Pt::new(6.0, 2.0).plus(Pt::new(2.0, 6.0).scale(1.0 / 40f32.sqrt()));
    for pad in [0usize, 40] {
        let mut nodes = corners.to_vec();
        // In a row far from the square: never on a shortest route.
        nodes.extend((0..pad).map(|k| Pt::new(20.0 + k as f32 * 0.25, 30.0)));
        let nav = Nav::with_nodes((40.0, 40.0), vec![square], nodes, 0.5);
        assert!(!nav.clear(a, b));
        for pass in [
            "fresh start",
            "second route, searched directly",
            "start remembered",
            "again",
        ] {
            let end = nav.walk(a, b, 5.0, &[]);
            assert!(
                end.dist(want) < 1e-5,
                "{pad} nodes padded, {pass}: ended at {end:?}, not {want:?}"
            );
        }
        assert_eq!(nav.route_length(a, b), 4.0 + 40f32.sqrt());
    }
}

#[test]
fn a_polygon_with_a_corner_not_a_finite_number_is_refused() {
    // `Shape::convex`: every corner finite. One coordinate of one corner is enough to refuse it.
    let square = [
        Pt::new(0.0, 0.0),
        Pt::new(2.0, 0.0),
        Pt::new(2.0, 2.0),
        Pt::new(0.0, 2.0),
    ];
    let mut clockwise = square;
    clockwise.reverse();
    for corners in [square, clockwise] {
        assert!(Shape::convex(&corners).is_some());
        for bad in [f32::NAN, f32::INFINITY] {
            for i in 0..4 {
                let c = corners[i];
                let mut x = corners;
                x[i] = Pt::new(bad, c.y);
                assert!(Shape::convex(&x).is_none(), "x = {bad} at {i}");
                let mut y = corners;
                y[i] = Pt::new(c.x, bad);
                assert!(Shape::convex(&y).is_none(), "y = {bad} at {i}");
            }
        }
    }
}

#[test]
fn inches_in_hundredths_are_digits_only() {
    // Position and content coordinates: a non-negative decimal with at most two decimals.
    use sololab::games::gods::geometry::parse_hundredths;
    assert_eq!(parse_hundredths("3.5"), Some(350));
    assert_eq!(parse_hundredths("12"), Some(1200));
    assert_eq!(parse_hundredths("0.07"), Some(7));
    for bad in [
        "+5", "-1", "", ".5", "5.", "1.234", "1.x", "x1", "1e2", "700",
    ] {
        let expected = if bad == "5." { Some(500) } else { None };
        assert_eq!(parse_hundredths(bad), expected, "{bad:?}");
    }
}

#[test]
fn a_star_outline_turning_one_way_at_every_corner_is_not_convex() {
    // `Shape::convex`: a pentagram turns the same way at each of its five corners but winds
    // round twice, crossing itself; the same corners in order make a convex pentagon.
    let corner = |k: usize| {
        let a = k as f32 * std::f32::consts::TAU / 5.0;
        Pt::new(10.0 + 5.0 * a.cos(), 10.0 + 5.0 * a.sin())
    };
    let pentagon: Vec<Pt> = (0..5).map(corner).collect();
    let star: Vec<Pt> = (0..5).map(|i| corner(2 * i % 5)).collect();
    assert!(Shape::convex(&pentagon).is_some());
    assert!(Shape::convex(&star).is_none());
}

/// A 4-inch square obstacle from (2, 2) to (6, 6) on a 40-inch table, already grown, with a
/// node at each corner (`Nav::with_nodes`, exact coordinates), for bases of radius 0.5.
fn square_with_corner_nodes() -> Nav {
    let square = Shape::Rect {
        x0: 2.0,
        y0: 2.0,
        x1: 6.0,
        y1: 6.0,
    };
    let nodes = [(2.0, 2.0), (6.0, 2.0), (6.0, 6.0), (2.0, 6.0)].map(|(x, y)| Pt::new(x, y));
    Nav::with_nodes((40.0, 40.0), vec![square], nodes.to_vec(), 0.5)
}

#[test]
fn a_walk_of_three_legs_follows_the_route_from_node_to_node() {
    // Around the left side of a square obstacle: from below to above it, by its two western
    // corners (nodes 0 and 3, which see each other along the edge); the route's middle leg is
    // the graph's next step from node 0 toward node 3 (`Nav::with_nodes`' table).
    let nav = square_with_corner_nodes();
    let (a, b) = (Pt::new(3.5, 1.0), Pt::new(3.5, 7.0));
    let side = 1.5f32.hypot(1.0);
    assert!((nav.route_length(a, b) - (4.0 + 2.0 * side)).abs() < 1e-5);
    // All the way, and stopped on the middle leg, halfway up the western edge.
    assert!(nav.walk(a, b, 100.0, &[]).dist(b) < 1e-5);
    let mid = nav.walk(a, b, side + 2.0, &[]);
    assert!(mid.dist(Pt::new(2.0, 4.0)) < 1e-4, "{mid:?}");
}

#[test]
fn an_inflated_polygon_has_every_side_moved_out_by_the_distance() {
    // `Shape::inflate` on a triangle (no right angle, unlike the squares elsewhere): each grown
    // corner lies `d` outside both sides that meet at it.
    let t = [Pt::new(0.0, 0.0), Pt::new(4.0, 0.0), Pt::new(1.0, 3.0)];
    let shape = Shape::convex(&t).unwrap();
    let d = 0.5;
    let Shape::Poly { v, n } = shape.inflate(d) else {
        panic!("a polygon stays a polygon")
    };
    let Shape::Poly { v: orig, .. } = shape else {
        unreachable!()
    };
    let k = n as usize;
    assert_eq!(k, 3);
    let out = |p: Pt, q: Pt| {
        let e = q.minus(p).unit();
        Pt::new(e.y, -e.x)
    };
    for i in 0..k {
        let (p, c, q) = (orig[(i + k - 1) % k], orig[i], orig[(i + 1) % k]);
        let w = v[i].minus(c);
        assert!(
            (out(p, c).dot(w) - d).abs() < 1e-4,
            "corner {i}: {:?}",
            v[i]
        );
        assert!(
            (out(c, q).dot(w) - d).abs() < 1e-4,
            "corner {i}: {:?}",
            v[i]
        );
    }
}

#[test]
fn a_rectangles_reach_distance_and_box_in_both_directions() {
    // `Shape::extent` (support function from the centre), `distance` and `bbox` on shapes
    // that are not square, so x and y cannot stand in for each other.
    let r = Shape::Rect {
        x0: 1.0,
        y0: 1.0,
        x1: 5.0,
        y1: 3.0,
    };
    assert!((r.extent(Pt::new(1.0, 0.0)) - 2.0).abs() < 1e-6);
    assert!((r.extent(Pt::new(0.0, -1.0)) - 1.0).abs() < 1e-6);
    let diag = Pt::new(1.0, 1.0).unit();
    assert!((r.extent(diag) - 3.0 / 2f32.sqrt()).abs() < 1e-5);
    assert!((r.distance(Pt::new(3.0, 6.0)) - 3.0).abs() < 1e-6);
    assert!((r.distance(Pt::new(3.0, -2.0)) - 3.0).abs() < 1e-6);
    assert!((r.distance(Pt::new(7.0, 6.0)) - 13f32.sqrt()).abs() < 1e-5);
    assert_eq!(r.bbox(), [1.0, 1.0, 5.0, 3.0]);
    let c = Shape::Circle {
        c: Pt::new(5.0, 7.0),
        r: 2.0,
    };
    assert!((c.distance(Pt::new(5.0, 12.0)) - 3.0).abs() < 1e-6);
    assert_eq!(c.distance(Pt::new(5.0, 8.0)), 0.0);
    assert_eq!(c.bbox(), [3.0, 5.0, 7.0, 9.0]);
}

#[test]
fn a_base_touching_the_tables_edge_fits_and_one_over_it_does_not() {
    // `Nav::fits`: the base wholly on the table (a touch allowed, within `EPS`) and clear of the
    // grown obstacles.
    let square = Shape::Rect {
        x0: 10.0,
        y0: 10.0,
        x1: 12.0,
        y1: 12.0,
    };
    let nav = Nav::with_nodes((20.0, 30.0), vec![square], Vec::new(), 0.5);
    assert!(nav.fits(Pt::new(0.5, 5.0)));
    assert!(nav.fits(Pt::new(19.5, 29.5)));
    assert!(!nav.fits(Pt::new(0.4, 5.0)));
    assert!(!nav.fits(Pt::new(5.0, 29.6)));
    assert!(!nav.fits(Pt::new(19.6, 5.0)));
    assert!(!nav.fits(Pt::new(11.0, 11.0)), "inside the obstacle");
    assert!(nav.fits(Pt::new(15.0, 15.0)));
    // `Nav::clamp` puts a base back on the table on every side.
    assert_eq!(nav.clamp(Pt::new(25.0, 40.0)), Pt::new(19.5, 29.5));
    assert_eq!(nav.clamp(Pt::new(-3.0, 0.2)), Pt::new(0.5, 0.5));
    assert_eq!(nav.clamp(Pt::new(7.0, 8.0)), Pt::new(7.0, 8.0));
    // `Nav::fly` over the obstacle: a flight ending inside it backs along its line until
    // clear ("she must finish her move clear").
    let end = nav.fly(Pt::new(5.0, 11.0), Pt::new(20.0, 11.0), 6.0, &[]);
    // In steps of 0.05 inch back from x = 11: the first clear point is the edge, x = 10.
    assert!(end.y == 11.0 && (end.x - 10.0).abs() < 1e-4, "{end:?}");
    let over = nav.fly(Pt::new(5.0, 11.0), Pt::new(20.0, 11.0), 8.0, &[]);
    assert_eq!(over, Pt::new(13.0, 11.0), "clear beyond it");
}

#[test]
fn a_model_touched_just_as_a_leg_ends_does_not_stop_a_walk_that_turns_away_from_it() {
    // Movement: never through another model, but a base may touch one. Around the square's
    // western side from (2, -2): the first leg ends at node (2, 2), where the base (radius 0.5)
    // just touches a model of radius 1.5 at (0, 2) (centres 2 apart, grazing: the contact is at
    // exactly the leg's end). The next leg turns north, away from it, so the walk goes on: 6
    // inches end at (2, 4). Stopping there would be the contact counted as a block.
    let nav = square_with_corner_nodes();
    let (a, b) = (Pt::new(2.0, -2.0), Pt::new(3.5, 7.0));
    assert_eq!(nav.route_length(a, b), 8.0 + 1.5f32.hypot(1.0));
    let model = [(Pt::new(0.0, 2.0), 1.5)];
    let end = nav.walk(a, b, 6.0, &model);
    assert!(end.dist(Pt::new(2.0, 4.0)) < 1e-5, "{end:?}");
    // A model one hundredth of an inch larger is met before the node: the walk stops there.
    let larger = [(Pt::new(0.0, 2.0), 1.51)];
    let end = nav.walk(a, b, 6.0, &larger);
    assert!(end.y < 2.0 && (end.x - 2.0).abs() < 1e-6, "{end:?}");
}
