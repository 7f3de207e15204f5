//! Tells the crate whether curl-sys linked the system libcurl or built its bundled copy: it
//! exports `static=1` (seen here as `DEP_CURL_STATIC`) only when it builds its own.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(libcurl_bundled)");
    println!("cargo::rerun-if-env-changed=DEP_CURL_STATIC");
    if std::env::var_os("DEP_CURL_STATIC").is_some() {
        println!("cargo::rustc-cfg=libcurl_bundled");
    }
}
