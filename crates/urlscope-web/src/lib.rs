//! urlscope's engine for the classroom page (`web/`), compiled to WebAssembly.
//!
//! The page calls these functions through wasm-bindgen; each returns the page's model as JSON
//! text, which the page renders in the DOM. The functions are plain Rust, so the model is tested
//! natively as well as in the browser.

use wasm_bindgen::prelude::*;

/// The version of the engine, as `urlscope --version` gives it.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
