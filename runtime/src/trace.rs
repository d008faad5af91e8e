//! Trace context across processes: W3C `traceparent`/`tracestate` in message [`Headers`].
//!
//! Both functions go through OpenTelemetry's global propagator, which is a no-op until the
//! binary installs one (it does when `OTEL_EXPORTER_OTLP_ENDPOINT` is set). So without
//! tracing, nothing here reads or writes a header, and the runtime's copy of the input's
//! trace headers to its outputs is what travels on.

use memval_transport::Headers;
use opentelemetry::propagation::{Extractor, Injector};
use tracing_opentelemetry::OpenTelemetrySpanExt;

struct Reader<'a>(&'a Headers);

impl Extractor for Reader<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)
    }

    fn keys(&self) -> Vec<&str> {
        self.0.iter().map(|(name, _)| name).collect()
    }
}

struct Writer<'a>(&'a mut Headers);

impl Injector for Writer<'_> {
    fn set(&mut self, key: &str, value: String) {
        self.0.insert(key, &value);
    }
}

/// Make the trace context carried by `headers` (if any) the parent of `span`. Call it before
/// the span is entered: a started span keeps the parent it started with.
pub fn continue_from(span: &tracing::Span, headers: &Headers) {
    let parent = opentelemetry::global::get_text_map_propagator(|p| p.extract(&Reader(headers)));
    // Fails only when the span is disabled or no tracing layer is installed: nothing to link.
    let _ = span.set_parent(parent);
}

/// Write `span`'s trace context into `headers`, so what is published under it continues
/// its trace in the next process.
pub fn inject(span: &tracing::Span, headers: &mut Headers) {
    let context = span.context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&context, &mut Writer(headers)));
}
