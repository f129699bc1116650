//! Bury Me in the Rift (rulebook: `../shared/rules/bury-me-in-the-rift.txt`): two mechs defend
//! buildings against monsters that move and aim by the monster die, the compass and the seek
//! arrow.

pub mod board;
pub mod content;
pub mod content_file;
