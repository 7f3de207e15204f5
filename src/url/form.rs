//! application/x-www-form-urlencoded (URL Standard: 5).
