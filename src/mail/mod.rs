//! Mail: reading messages, composing replies, and moving them in and out.

pub mod transport;
