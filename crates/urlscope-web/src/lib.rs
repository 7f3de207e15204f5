//! urlscope's engine for the classroom page (`web/`), compiled to WebAssembly.
//!
//! The page calls these functions through wasm-bindgen; each returns the page's model as JSON
//! text, which the page renders in the DOM. The functions are plain Rust, so the model is tested
//! natively as well as in the browser.

use wasm_bindgen::prelude::*;

// The views of the page beyond its shell: each exports a `view_…` function (see web/views/).
pub mod grammar;
pub mod host;
pub mod lessons;
pub mod pattern;
pub mod resolution;

/// The Base line as the inspector reads it: empty is no base.
pub(crate) fn base_of(base: &str) -> Option<&str> {
    Some(base).filter(|b| !b.is_empty())
}

/// The version of the engine, as `urlscope --version` gives it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
