//! Small text helpers shared by the reports, tables and pages.

/// `1234567` as `1,234,567`.
///
/// ```
/// use hysolve_cli::text::thousands;
/// assert_eq!(thousands(0), "0");
/// assert_eq!(thousands(999), "999");
/// assert_eq!(thousands(1000), "1,000");
/// assert_eq!(thousands(4_331_140), "4,331,140");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Shortest run whose CPU share means something: the process CPU clock
/// ticks in milliseconds on some kernels, so a share of a few milliseconds
/// says nothing.
const MIN_SHARE_WALL_S: f64 = 0.05;

/// `cpu_s` as a share of `wall_s`, or `-` for a run too short to tell.
///
/// ```
/// use hysolve_cli::text::cpu_share;
/// assert_eq!(cpu_share(0.001, 0.001), "-");
/// assert_eq!(cpu_share(0.0, 0.0), "-");
/// assert_eq!(cpu_share(0.02, 0.049), "-");
/// assert_eq!(cpu_share(0.01, 1.0), "1.00%");
/// assert_eq!(cpu_share(0.05, 0.05), "100.00%");
/// ```
pub fn cpu_share(cpu_s: f64, wall_s: f64) -> String {
    if wall_s < MIN_SHARE_WALL_S {
        "-".to_string()
    } else {
        format!("{:.2}%", 100.0 * cpu_s / wall_s)
    }
}
