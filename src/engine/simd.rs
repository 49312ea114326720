//! The widest vector instructions the search kernels may use: what the
//! processor has, capped by `HYSOLVE_SIMD`.
//!
//! A kernel with a vector path asks [`level`] (decided once, at the first
//! question) and takes its widest path at or below it. Every path of a
//! kernel visits the same tree, so counts and nodes do not depend on the
//! level; only the time does.
//!
//! `HYSOLVE_SIMD=none|avx2|avx512` caps the level, so that a machine with
//! AVX-512 can run and measure the paths a laptop gets. A value the
//! processor cannot run, or an unknown one, is refused by [`from_env`]
//! (the command line calls it first and prints its error in one line).
//!
//! ```
//! use hysolve::advanced::simd::{Level, parse};
//! assert_eq!(parse(Some("none")), Ok(Level::None));
//! assert!(parse(Some("bogus")).unwrap_err().contains("HYSOLVE_SIMD"));
//! ```

use std::sync::OnceLock;

/// The environment variable that caps the level.
pub const VAR: &str = "HYSOLVE_SIMD";

/// A set of vector instructions, from narrowest to widest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Portable scalar code (`u64` bit operations, `popcnt` where the
    /// target has it): what every processor runs, aarch64 included.
    None,
    /// x86-64-v3: AVX2, BMI1/2, LZCNT, POPCNT.
    Avx2,
    /// AVX-512 F with VPOPCNTDQ (besides x86-64-v3).
    Avx512,
}

impl Level {
    /// The name `HYSOLVE_SIMD` takes, and `--json` reports.
    pub fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    const ALL: [Level; 3] = [Level::None, Level::Avx2, Level::Avx512];
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The widest level this processor has, whatever `HYSOLVE_SIMD` says.
pub fn detected() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        let v3 = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt");
        if v3 && is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512vpopcntdq")
        {
            Level::Avx512
        } else if v3 {
            Level::Avx2
        } else {
            Level::None
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Level::None
    }
}

/// Every level this processor can run, narrowest first (`none` always).
pub fn available() -> Vec<Level> {
    let top = detected();
    Level::ALL.into_iter().filter(|&l| l <= top).collect()
}

/// The level a value of `HYSOLVE_SIMD` asks for (`None`: unset, the
/// processor's widest), or a one-line error naming what the processor has.
pub fn parse(value: Option<&str>) -> Result<Level, String> {
    let top = detected();
    let Some(value) = value else {
        return Ok(top);
    };
    let has = available()
        .iter()
        .map(|l| l.name())
        .collect::<Vec<_>>()
        .join(", ");
    let asked = Level::ALL
        .into_iter()
        .find(|l| l.name() == value.trim())
        .ok_or_else(|| {
            format!("{VAR}={value}: unknown value (one of none, avx2, avx512; this processor runs {has})")
        })?;
    if asked > top {
        return Err(format!(
            "{VAR}={value}: this processor lacks it (it runs {has})"
        ));
    }
    Ok(asked)
}

/// The level `HYSOLVE_SIMD` asks for in this process's environment, or
/// its one-line error.
pub fn from_env() -> Result<Level, String> {
    let value = std::env::var(VAR).ok();
    parse(value.as_deref())
}

static LEVEL: OnceLock<Level> = OnceLock::new();

/// The level the kernels use in this process: `HYSOLVE_SIMD`'s, decided at
/// the first question. A value [`from_env`] refuses falls back to the
/// processor's widest level with a warning (a program that wants the
/// refusal calls `from_env` first, as the command line does).
pub fn level() -> Level {
    *LEVEL.get_or_init(|| {
        from_env().unwrap_or_else(|e| {
            tracing::warn!("{e}; using {}", detected());
            detected()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_to_itself_or_is_refused_for_the_processor() {
        for l in Level::ALL {
            match parse(Some(l.name())) {
                Ok(got) => assert_eq!(got, l),
                Err(e) => {
                    assert!(l > detected());
                    assert!(e.contains("lacks it") && !e.contains('\n'), "{e}");
                }
            }
        }
        assert_eq!(parse(None), Ok(detected()));
        assert_eq!(parse(Some("none")), Ok(Level::None));
    }

    #[test]
    fn unknown_values_are_refused_in_one_line() {
        for v in ["bogus", "", "AVX512", "sse"] {
            let e = parse(Some(v)).unwrap_err();
            assert!(
                e.starts_with("HYSOLVE_SIMD=") && e.contains("unknown value"),
                "{e}"
            );
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn available_levels_rise_from_none() {
        let a = available();
        assert_eq!(a[0], Level::None);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(*a.last().unwrap(), detected());
    }
}
