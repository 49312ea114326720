//! The CPU a worker's walk is compiled for, chosen at run time. A user's
//! crate is built for the baseline target (x86-64 without a hardware
//! popcount, for one), whatever this workspace's `.cargo/config.toml`
//! sets; so the walk and its frames, with the problem's methods inlined
//! into them, are compiled twice: for the baseline, and for [`FEATURES`]
//! (x86-64-v2's popcount and SSE4.2, with BMI1, BMI2 and LZCNT: every
//! x86-64 CPU since 2013). The walk enters the second copy where the CPU
//! has them ([`fast`]), and each of its recursive frames calls its own
//! second copy, since a function that is not inlined is compiled with its
//! own features, not its caller's (`engine/README.md`, "A user's build").

/// The features of the fast copy, as [`fast_copy!`] writes them (a
/// `target_feature` attribute takes a literal, so the macro holds the
/// list; this names it for the documents and the test below).
#[cfg(test)]
const FEATURES: &str = "popcnt,sse3,ssse3,sse4.1,sse4.2,bmi1,bmi2,lzcnt";

/// Whether this build wants the fast copy at all: a build for x86-64
/// without x86-64-v2's popcount and SSE4.2 (a user's crate, by default).
/// A build with them (this workspace's, `.cargo/config.toml`) has them in
/// its baseline copy already, and there the fast copy measured slower
/// (`cheap_nodes problem` 0.163 s against 0.178 s, the same with
/// x86-64-v2's features alone: the second call in every frame), so it
/// walks the baseline copy, a constant the compiler folds.
pub(crate) const WANTED: bool = cfg!(all(
    target_arch = "x86_64",
    not(all(target_feature = "popcnt", target_feature = "sse4.2"))
));

/// Whether this CPU has every feature of the fast copy, in a build that
/// [wants](WANTED) it: then, and only then, the walk may call a function
/// [`fast_copy!`] wrote. Detected once, then a relaxed load of the
/// standard library's cache.
#[inline]
pub(crate) fn fast() -> bool {
    if !WANTED {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("sse3")
            && is_x86_feature_detected!("ssse3")
            && is_x86_feature_detected!("sse4.1")
            && is_x86_feature_detected!("sse4.2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Writes a method `$fast` that calls `self.$body` (inlined: an
/// `#[inline(always)]` method of the same impl) with its arguments, and is
/// compiled with the fast copy's features, so that `$body` and the
/// problem's methods inlined into it are too. Not inlined itself (a
/// function with features cannot be inlined into one without). Safe to
/// call only where [`fast`] said so: every call is in an `unsafe` block
/// that says why it holds.
macro_rules! fast_copy {
    (
        $(#[$doc:meta])*
        fn $fast:ident $(<$g:ident: $bound:path>)? => $body:ident $(::<$t:tt>)?
        ($($arg:ident: $ty:ty),*) -> $ret:ty
    ) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,sse3,ssse3,sse4.1,sse4.2,bmi1,bmi2,lzcnt")]
        #[inline(never)]
        fn $fast $(<$g: $bound>)? (&mut self, $($arg: $ty),*) -> $ret {
            self.$body $(::<$t>)? ($($arg),*)
        }
    };
}
pub(super) use fast_copy;

#[cfg(test)]
mod test {
    /// The macro's literal is the list the documents name.
    #[test]
    fn the_fast_copy_is_compiled_with_the_features_detected() {
        let source = include_str!("cpu.rs");
        let attribute = format!("#[target_feature(enable = \"{}\")]", super::FEATURES);
        assert_eq!(source.matches(&attribute).count(), 1);
        for feature in super::FEATURES.split(',') {
            let detected = format!("is_x86_feature_detected!(\"{feature}\")");
            assert!(source.contains(&detected), "{feature} is not detected");
        }
    }
}
