//! I Bury the Gods (rulebook: `../shared/rules/i-bury-the-gods.txt`).
pub mod content;
pub mod content_file;
pub mod geometry;
