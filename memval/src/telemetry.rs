//! Diagnostics on stderr, and traces over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set.
//!
//! A run is one trace: where a run starts (`validate`, an ingest event) memval opens a span
//! and writes its W3C trace context into the headers of the batches it publishes; every
//! stage continues that trace in the span it handles a batch in (`memval_runtime::trace`).
//! The exporter batches spans on the SDK's own thread and is flushed on exit.

use std::time::Duration;

use anyhow::anyhow;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

/// The `OTEL_*` variables that configure memval's traces (read by the OpenTelemetry SDK and
/// OTLP exporter, or by memval itself). `serve --check-config` refuses any other `OTEL_*`
/// variable, so a typo does not silently switch tracing off.
pub const OTEL_VARS: &[&str] = &[
    "OTEL_SDK_DISABLED",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    "OTEL_EXPORTER_OTLP_TIMEOUT",
    "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
    "OTEL_EXPORTER_OTLP_COMPRESSION",
    "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION",
    "OTEL_TRACES_SAMPLER",
    "OTEL_TRACES_SAMPLER_ARG",
    "OTEL_BSP_SCHEDULE_DELAY",
    "OTEL_BSP_MAX_QUEUE_SIZE",
    "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    "OTEL_BSP_EXPORT_TIMEOUT",
    "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT",
    "OTEL_SPAN_EVENT_COUNT_LIMIT",
    "OTEL_SPAN_LINK_COUNT_LIMIT",
];

/// How long exiting waits for the last spans to be sent.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(5);

/// Where and how traces go, as the environment says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceConfig {
    /// The URL spans are POSTed to.
    pub url: String,
    /// `http/protobuf` or `http/json`.
    pub protocol: String,
    pub service: String,
    /// Whether `service` came from memval (not from `OTEL_SERVICE_NAME`/`OTEL_RESOURCE_ATTRIBUTES`).
    pub default_service: bool,
}

/// The trace settings of this process's environment: `None` when tracing is off (no
/// endpoint, or `OTEL_SDK_DISABLED=true`), an error when they cannot work.
pub fn trace_config(default_service: &str) -> anyhow::Result<Option<TraceConfig>> {
    trace_config_from(&|name| std::env::var(name).ok(), default_service)
}

/// [`trace_config`] with the environment given; an empty variable counts as unset.
fn trace_config_from(
    env: &dyn Fn(&str) -> Option<String>,
    default_service: &str,
) -> anyhow::Result<Option<TraceConfig>> {
    let var = |name: &str| env(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    if var("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return Ok(None);
    }
    let url = match (var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"), var("OTEL_EXPORTER_OTLP_ENDPOINT")) {
        (Some(traces), _) => traces,
        (None, Some(base)) => format!("{}/v1/traces", base.trim_end_matches('/')),
        (None, None) => return Ok(None),
    };
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(anyhow!(
            "the OTLP endpoint {url:?} is not an http:// or https:// URL (e.g. http://otel-collector:4318)"
        ));
    }
    let protocol = var("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        .or_else(|| var("OTEL_EXPORTER_OTLP_PROTOCOL"))
        .unwrap_or_else(|| "http/protobuf".to_owned());
    if protocol != "http/protobuf" && protocol != "http/json" {
        return Err(anyhow!(
            "OTLP protocol {protocol:?} is not supported; memval exports traces over OTLP/HTTP: set OTEL_EXPORTER_OTLP_PROTOCOL to http/protobuf or http/json"
        ));
    }
    let named = var("OTEL_SERVICE_NAME").is_some()
        || var("OTEL_RESOURCE_ATTRIBUTES")
            .is_some_and(|attrs| attrs.split(',').any(|kv| kv.trim().starts_with("service.name=")));
    let service = match (named, var("OTEL_SERVICE_NAME")) {
        (_, Some(name)) => name,
        (true, None) => "from OTEL_RESOURCE_ATTRIBUTES".to_owned(),
        (false, None) => default_service.to_owned(),
    };
    Ok(Some(TraceConfig { url, protocol, service, default_service: !named }))
}

/// What `init` set up; call [`Telemetry::shutdown`] before exiting so no span is lost.
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

/// Install the stderr logger (filtered by `log`, memval's `--log`) and, when `export` and
/// the environment asks for traces, the OTLP exporter. Call outside the async runtime: the
/// exporter's HTTP client is a blocking one.
pub fn init(log: &str, default_service: &str, export: bool) -> anyhow::Result<Telemetry> {
    // Colour only on a terminal, and never with NO_COLOR set (https://no-color.org).
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .with_filter(tracing_subscriber::EnvFilter::try_new(log).unwrap_or_else(|_| "warn".into()));
    let config = if export { trace_config(default_service)? } else { None };
    let Some(config) = config else {
        tracing_subscriber::registry().with(stderr).init();
        return Ok(Telemetry { provider: None });
    };
    // Another crate may link a TLS stack without a default crypto provider; the exporter's
    // client must not find none (a no-op when one is set).
    memval_transport::jetstream::install_crypto_provider();
    use opentelemetry_otlp::WithExportConfig;
    let protocol = if config.protocol == "http/json" {
        opentelemetry_otlp::Protocol::HttpJson
    } else {
        opentelemetry_otlp::Protocol::HttpBinary
    };
    // Endpoint and protocol as resolved above, so what `--check-config` reports is what is used.
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(config.url.clone())
        .with_protocol(protocol)
        .build()
        .map_err(|e| {
            anyhow!("cannot export traces to {}: {e}; check the OTEL_EXPORTER_OTLP_* variables", config.url)
        })?;
    let mut resource =
        Resource::builder().with_attribute(opentelemetry::KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    if config.default_service {
        resource = resource.with_service_name(config.service.clone());
    }
    let provider = SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource.build()).build();
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    // Only memval's own spans and warnings become trace data: the HTTP client, the NATS
    // client and the exporter itself stay out (the exporter would otherwise trace itself).
    let spans = tracing_opentelemetry::layer().with_tracer(provider.tracer("memval")).with_filter(
        tracing_subscriber::filter::filter_fn(|meta| {
            let level = if meta.is_span() { tracing::Level::INFO } else { tracing::Level::WARN };
            meta.target().starts_with("memval") && *meta.level() <= level
        }),
    );
    tracing_subscriber::registry().with(stderr).with(spans).init();
    tracing::info!(url = %config.url, protocol = %config.protocol, service = %config.service, "exporting traces");
    Ok(Telemetry { provider: Some(provider) })
}

impl Telemetry {
    /// Send the spans still buffered and stop the exporter.
    pub fn shutdown(self) {
        if let Some(provider) = self.provider {
            if let Err(e) = provider.shutdown_with_timeout(FLUSH_TIMEOUT) {
                eprintln!("memval: warning: the last spans may not have been exported: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(env: &[(&str, &str)], expected: Result<Option<(&str, &str, &str)>, &str>) {
        let lookup = |name: &str| env.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
        let got = trace_config_from(&lookup, "memval-scorer");
        match (got, expected) {
            (Ok(None), Ok(None)) => {}
            (Ok(Some(c)), Ok(Some((url, protocol, service)))) => {
                assert_eq!(
                    (c.url.as_str(), c.protocol.as_str(), c.service.as_str()),
                    (url, protocol, service),
                    "{env:?}"
                )
            }
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e} should mention {want:?}"),
            (got, want) => panic!("{env:?}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn the_environment_decides_where_traces_go() {
        check(&[], Ok(None));
        check(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "")], Ok(None));
        check(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"), ("OTEL_SDK_DISABLED", "true")], Ok(None));
        check(
            &[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/")],
            Ok(Some(("http://c:4318/v1/traces", "http/protobuf", "memval-scorer"))),
        );
        check(
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
                ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t:9/in"),
            ],
            Ok(Some(("http://t:9/in", "http/protobuf", "memval-scorer"))),
        );
        check(
            &[
                ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
                ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
                ("OTEL_SERVICE_NAME", "s"),
            ],
            Ok(Some(("http://c:4318/v1/traces", "http/json", "s"))),
        );
        check(
            &[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"), ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")],
            Err("OTLP/HTTP"),
        );
        check(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "c:4317")], Err("not an http://"));
    }

    #[test]
    fn the_exporter_reads_the_variables_memval_lists() {
        // Each listed exporter variable is one the OTLP exporter or SDK defines, so the list
        // can only go stale by a rename upstream, which this catches.
        for name in [
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_ENDPOINT,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_PROTOCOL,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_HEADERS,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TRACES_HEADERS,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TIMEOUT,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TRACES_TIMEOUT,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_COMPRESSION,
            opentelemetry_otlp::OTEL_EXPORTER_OTLP_TRACES_COMPRESSION,
            opentelemetry_sdk::trace::OTEL_BSP_SCHEDULE_DELAY,
            opentelemetry_sdk::trace::OTEL_BSP_MAX_QUEUE_SIZE,
            opentelemetry_sdk::trace::OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
            opentelemetry_sdk::trace::OTEL_BSP_EXPORT_TIMEOUT,
        ] {
            assert!(OTEL_VARS.contains(&name), "{name} is missing from OTEL_VARS");
        }
    }
}
