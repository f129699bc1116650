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
