//! Flags and flag values that several commands share: the NATS connection, the output
//! formats, how candidate pairs are proposed, and how a `--fail-on` name becomes the
//! library's type. A leaf of the binary: it imports no command
//! module, so the commands (`cmd/`) import it and `cli` imports the commands, one way.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::anyhow;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;
use memval_pipeline::topology::NatsOptions;
use memval_transport::jetstream::{Auth, Tls};

/// How to reach NATS. Every flag can also be given in the environment. They are listed by
/// `--help` only: `-h` keeps to the flags most runs set.
#[derive(Debug, Clone, clap::Args)]
pub struct NatsArgs {
    /// User name for user/password auth.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-user",
        env = "MEMVAL_NATS_USER",
        hide_env_values = true,
        value_name = "USER"
    )]
    pub user: Option<String>,
    /// Password for user/password auth.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-password",
        env = "MEMVAL_NATS_PASSWORD",
        value_name = "PASSWORD",
        hide_env_values = true
    )]
    pub password: Option<String>,
    /// Token auth.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-token",
        env = "MEMVAL_NATS_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,
    /// NKey auth: the user's nkey seed (SU...).
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-nkey",
        env = "MEMVAL_NATS_NKEY",
        value_name = "SEED",
        hide_env_values = true
    )]
    pub nkey: Option<String>,
    /// JWT auth: a .creds file.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-creds",
        env = "MEMVAL_NATS_CREDS",
        hide_env_values = true,
        value_name = "FILE"
    )]
    pub creds: Option<PathBuf>,
    /// PEM file of the CA that signed the server's certificate.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-tls-ca",
        env = "MEMVAL_NATS_TLS_CA",
        hide_env_values = true,
        value_name = "PEM"
    )]
    pub tls_ca: Option<PathBuf>,
    /// PEM client certificate, for servers that verify clients (needs --nats-tls-key).
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-tls-cert",
        env = "MEMVAL_NATS_TLS_CERT",
        hide_env_values = true,
        value_name = "PEM"
    )]
    pub tls_cert: Option<PathBuf>,
    /// PEM key of --nats-tls-cert.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-tls-key",
        env = "MEMVAL_NATS_TLS_KEY",
        hide_env_values = true,
        value_name = "PEM"
    )]
    pub tls_key: Option<PathBuf>,
    /// Refuse a server that does not offer TLS.
    #[arg(
        help_heading = "NATS connection",
        hide_short_help = true,
        long = "nats-tls-required",
        env = "MEMVAL_NATS_TLS_REQUIRED",
        hide_env_values = true
    )]
    pub tls_required: bool,
    /// Seconds a delivered batch may go unanswered before another replica gets it.
    ///
    /// Used when this process creates a consumer; services report progress at a third of it.
    #[arg(help_heading = "NATS connection", hide_short_help = true, long = "nats-ack-wait", env = "MEMVAL_NATS_ACK_WAIT", hide_env_values = true, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub ack_wait: u64,
    /// Unacknowledged batches a consumer may have out at once, over all its replicas.
    #[arg(help_heading = "NATS connection", hide_short_help = true, long = "nats-max-ack-pending", env = "MEMVAL_NATS_MAX_ACK_PENDING", hide_env_values = true, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_ack_pending: u32,
}

impl NatsArgs {
    /// The connection these flags describe, or an error naming the flags that clash.
    pub fn options(&self) -> anyhow::Result<NatsOptions> {
        Ok(NatsOptions {
            auth: auth(self)?,
            tls: Tls {
                ca: self.tls_ca.clone(),
                cert: self.tls_cert.clone(),
                key: self.tls_key.clone(),
                required: self.tls_required,
            },
            ack_wait: Duration::from_secs(self.ack_wait),
            max_ack_pending: i64::from(self.max_ack_pending),
        })
    }
}

pub(crate) fn auth(args: &NatsArgs) -> anyhow::Result<Auth> {
    let mut chosen = Vec::new();
    if args.user.is_some() || args.password.is_some() {
        chosen.push("--nats-user/--nats-password");
    }
    if args.token.is_some() {
        chosen.push("--nats-token");
    }
    if args.nkey.is_some() {
        chosen.push("--nats-nkey");
    }
    if args.creds.is_some() {
        chosen.push("--nats-creds");
    }
    if chosen.len() > 1 {
        return Err(anyhow!("choose one nats auth method, not {}", chosen.join(" and ")));
    }
    Ok(match (&args.user, &args.password, &args.token, &args.nkey, &args.creds) {
        (Some(user), Some(password), ..) => Auth::UserPassword { user: user.clone(), password: password.clone() },
        (Some(_), None, ..) | (None, Some(_), ..) => {
            return Err(anyhow!(
                "--nats-user and --nats-password go together (or MEMVAL_NATS_USER and MEMVAL_NATS_PASSWORD)"
            ))
        }
        (_, _, Some(token), ..) => Auth::Token(token.clone()),
        (_, _, _, Some(seed), _) => Auth::NKeySeed(seed.clone()),
        (_, _, _, _, Some(creds)) => Auth::CredsFile(creds.clone()),
        _ => Auth::None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Md,
    Sarif,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HistoryFormat {
    Table,
    Json,
}

/// How candidate pairs are proposed (`memval pairs`, `memval reconcile`, `serve reconciler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PairMethod {
    /// Jaccard >= 0.15 over lowercase alphanumeric tokens of 4 or more characters.
    Keyword,
    /// Cosine >= 0.55 of all-MiniLM-L6-v2 sentence embeddings (needs --embed-model).
    Embed,
    /// Both, merged: a pair found by both keeps the higher score and names its method.
    Both,
}

/// `--method` and `--embed-model`, the same flags wherever candidate pairs are proposed.
#[derive(Debug, Clone, clap::Args)]
pub struct PairMethodArgs {
    /// How candidate pairs are proposed.
    #[arg(long, value_enum, default_value = "keyword")]
    pub method: PairMethod,
    /// all-MiniLM-L6-v2's folder, for embed and both.
    ///
    /// It holds model.safetensors, config.json and tokenizer.json; `bash
    /// scripts/embed-model.sh` fetches them.
    #[arg(long, value_name = "DIR", env = "MEMVAL_EMBED_MODEL", hide_env_values = true)]
    pub embed_model: Option<PathBuf>,
}

impl PairMethodArgs {
    /// The library's method, with embeddings cached in `store_dir` (`None`: the caller's
    /// default, where there is one).
    pub fn method(&self, store_dir: Option<PathBuf>) -> memval_reconciler::candidates::Method {
        use memval_reconciler::candidates::{EmbedSetup, Method};
        let setup = || EmbedSetup { model_dir: self.embed_model.clone(), store_dir: store_dir.clone() };
        match self.method {
            PairMethod::Keyword => Method::Keyword,
            PairMethod::Embed => Method::Embed(setup()),
            PairMethod::Both => Method::Both(setup()),
        }
    }
}

/// `validate --fail-on`: a [`memval_report::FailOn`] by its name. `--help` lists every name
/// (and what `never` means), as for an enum of clap's own; the library type knows no clap.
pub fn validate_fail_on() -> impl TypedValueParser<Value = memval_report::FailOn> {
    use memval_report::FailOn;
    PossibleValuesParser::new(FailOn::ALL.map(|f| PossibleValue::new(f.name()).help(f.help())))
        .try_map(|name| name.parse::<FailOn>())
}

/// `reconcile --fail-on`: a [`memval_reconciler::FailOn`] by its name, listed in `--help`.
pub fn reconcile_fail_on() -> impl TypedValueParser<Value = memval_reconciler::FailOn> {
    use memval_reconciler::FailOn;
    PossibleValuesParser::new(FailOn::ALL.map(|f| PossibleValue::new(f.name()))).try_map(|name| name.parse::<FailOn>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_auth_method_at_a_time() {
        let none = NatsArgs {
            user: None,
            password: None,
            token: None,
            nkey: None,
            creds: None,
            tls_ca: None,
            tls_cert: None,
            tls_key: None,
            tls_required: false,
            ack_wait: 30,
            max_ack_pending: 256,
        };
        assert!(matches!(auth(&none), Ok(Auth::None)));
        let both =
            NatsArgs { token: Some("t".into()), user: Some("u".into()), password: Some("p".into()), ..none.clone() };
        assert!(auth(&both).unwrap_err().to_string().contains("choose one"));
        let half = NatsArgs { user: Some("u".into()), ..none.clone() };
        assert!(auth(&half).unwrap_err().to_string().contains("go together"));
        let token = NatsArgs { token: Some("t".into()), ..none };
        assert!(matches!(auth(&token), Ok(Auth::Token(t)) if t == "t"));
    }
}
