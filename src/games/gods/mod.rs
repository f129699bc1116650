//! I Bury the Gods (rulebook: `../shared/rules/i-bury-the-gods.txt`).
pub mod geometry;
