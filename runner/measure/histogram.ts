/**
 * Latency histograms (HdrHistogram via hdr-histogram-js 3): values in nanoseconds, 3 significant
 * digits. A percentile is HdrHistogram's `getValueAtPercentile`: the highest value equivalent to the
 * bucket holding that percentile, so it is exact to 3 significant digits.
 */
import * as hdr from "hdr-histogram-js";

/** How percentiles are computed, recorded beside every figure. */
export const PERCENTILE_METHOD = "hdrhistogram-js 3 getValueAtPercentile (bucket highest-equivalent value, 3 significant digits)";

/** A latency histogram in nanoseconds. */
export type LatencyHistogram = hdr.Histogram;

/** The longest value a latency histogram holds, ns (60 s): a longer call cannot be recorded. */
export const HISTOGRAM_MAX_NS = 60e9;

/** A new empty histogram for 1 ns … {@link HISTOGRAM_MAX_NS} at 3 significant digits. */
export function newHistogram(): LatencyHistogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: HISTOGRAM_MAX_NS,
    numberOfSignificantValueDigits: 3,
    bitBucketSize: 64,
    useWebAssembly: false,
  });
}

/** The percentiles of one trial, microseconds (ns / 1000). */
export interface LatencySummary {
  count: number;
  p50Us: number;
  p95Us: number;
  p99Us: number;
  maxUs: number;
  meanUs: number;
}

/** Summarize a histogram in microseconds. */
export function summarize(h: LatencyHistogram): LatencySummary {
  const us = (ns: number) => ns / 1000;
  return {
    count: h.totalCount,
    p50Us: us(h.getValueAtPercentile(50)),
    p95Us: us(h.getValueAtPercentile(95)),
    p99Us: us(h.getValueAtPercentile(99)),
    maxUs: us(h.maxValue),
    meanUs: us(h.mean),
  };
}

/** Encode a histogram as HdrHistogram's compressed base64 (decodable by any HdrHistogram port). */
export function encodeHistogram(h: LatencyHistogram): string {
  return hdr.encodeIntoCompressedBase64(h);
}

/** Decode a histogram written by encodeHistogram. @throws Error on a malformed string */
export function decodeHistogram(s: string): LatencyHistogram {
  return hdr.decodeFromCompressedBase64(s, 64, false);
}
