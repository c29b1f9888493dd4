//! How [`super::cross_validate`] runs its rounds ([`CvMethod`]): the axes of
//! `cvbench svm -v --seeding/--order/--seeder/--cache` by their names, and
//! `auto` ([`super::auto_seeding`]).

use super::auto_seeding::{auto_seeding, AUTO_SEEDING};
use super::SvcSpec;
use crate::data::Dataset;
use crate::svm::{CacheMode, CvStrategy, RoundOrder, SeederKind, SeedingMethod, SvmError};

/// How [`super::cross_validate`] runs its rounds: `cvbench svm -v`'s axes (the
/// threads are [`SvcSpec::threads`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CvMethod {
    /// The round order.
    pub order: RoundOrder,
    /// The seeder.
    pub seeder: SeederKind,
    /// The kernel cache, within [`crate::svm::SvmParams::cache_mb`] in all.
    pub cache: CacheMode,
}

impl Default for CvMethod {
    /// `svm-train -v`'s rounds (each from zero) on one shared cache.
    fn default() -> CvMethod {
        CvMethod {
            order: RoundOrder::PerRound,
            seeder: SeederKind::Zero,
            cache: CacheMode::Shared,
        }
    }
}

impl CvMethod {
    /// The method of `cvbench svm -v --seeding S [--order O] [--seeder D]
    /// --cache C`, from their names (the registries of
    /// [`crate::svm::cv::strategy`]); an unknown name is an error listing the
    /// known ones.
    pub fn parse(
        seeding: &str,
        order: Option<&str>,
        seeder: Option<&str>,
        cache: &str,
    ) -> Result<CvMethod, SvmError> {
        Self::parse_with(seeding, None, order, seeder, cache)
    }

    /// [`CvMethod::parse`] where `seeding` may also be `"auto"`,
    /// the preset the engine chooses for `ds` and `spec`'s class
    /// weights (`--order` and `--seeder` override its axes as a named
    /// preset's).
    pub fn parse_for(
        ds: &Dataset,
        spec: &SvcSpec,
        seeding: &str,
        order: Option<&str>,
        seeder: Option<&str>,
        cache: &str,
    ) -> Result<CvMethod, SvmError> {
        let auto = auto_seeding(ds, !spec.weights.is_empty());
        Self::parse_with(seeding, Some(auto), order, seeder, cache)
    }

    fn parse_with(
        seeding: &str,
        auto: Option<SeedingMethod>,
        order: Option<&str>,
        seeder: Option<&str>,
        cache: &str,
    ) -> Result<CvMethod, SvmError> {
        fn named<T>(
            what: &str,
            name: &str,
            parse: fn(&str) -> Option<T>,
            names: fn() -> String,
        ) -> Result<T, SvmError> {
            parse(name).ok_or_else(|| {
                SvmError::InvalidParam(format!("unknown {what} `{name}`: use {}", names()))
            })
        }
        let seeding = match auto {
            Some(m) if seeding.eq_ignore_ascii_case(AUTO_SEEDING) => m,
            Some(_) => named("seeding method", seeding, SeedingMethod::parse, || {
                format!("{AUTO_SEEDING}, {}", SeedingMethod::names())
            })?,
            None => named(
                "seeding method",
                seeding,
                SeedingMethod::parse,
                SeedingMethod::names,
            )?,
        };
        let order = order
            .map(|o| named("round order", o, RoundOrder::parse, RoundOrder::names))
            .transpose()?;
        let seeder = seeder
            .map(|d| named("seeder", d, SeederKind::parse, SeederKind::names))
            .transpose()?;
        let cache = named("cache", cache, CacheMode::parse, CacheMode::names)?;
        let s = CvStrategy::with_overrides(seeding, order, seeder, cache, 1);
        Ok(CvMethod {
            order: s.order,
            seeder: s.seeder,
            cache,
        })
    }

    /// The method's name: its preset's (`none`, `sir`, ...), else
    /// `order+seeder`.
    pub fn label(&self) -> String {
        CvStrategy {
            order: self.order,
            seeder: self.seeder,
            cache: self.cache,
            threads: 1,
        }
        .label()
    }

    /// Whether the rounds seed one another (not `svm-train -v`'s).
    pub(crate) fn seeded(&self) -> bool {
        (self.order, self.seeder) != (RoundOrder::PerRound, SeederKind::Zero)
    }
}
