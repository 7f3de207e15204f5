fn main() {
    for h in std::env::args().skip(1) {
        let r = urlscope::Report::new(&format!("https://{h}/"), None);
        let Some(a) = r.host_analysis else {
            println!("{h}: no analysis");
            continue;
        };
        print!("{h}: {:?}", a.ids());
        for d in &a.display {
            let why = d.host_rule.as_ref().map(|h| h.rule.to_owned()).or_else(|| {
                d.first_refusal()
                    .map(|l| format!("{:?} {:?}", l.rule, l.code_points))
            });
            print!(" | {} {} {:?}", d.policy, d.unicode, why);
        }
        println!();
    }
}
