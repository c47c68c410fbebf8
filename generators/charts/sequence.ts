/**
 * A sequence diagram as a static SVG: a client lane and a server lane, one arrow per HTTP message
 * or stdio line, labelled with what it carries and its bytes per layer. Every text from the wire
 * is XML-escaped here, and a bidirectional formatting character (U+202E …) is shown as the text
 * `<U+202E>`, as in markdown, not left to reorder the label around it.
 */
import { showBidi } from "../../format/markdown.js";
import { formatInt } from "../format.js";
import type { SequenceStep } from "../sections/trace.js";

/** Escape text for SVG character data and attribute values; bidirectional formatting characters shown as `<U+202E>` (format/markdown.ts showBidi). */
const xml = (s: string): string => showBidi(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const WIDTH = 760;
const CLIENT_X = 60;
const SERVER_X = 700;
const STEP = 44;
const TOP = 40;

/**
 * The bytes line of a step: the layers it has, e.g. `head 221 · body 100 · chunks 11 bytes`; a
 * body that holds bytes outside its JSON-RPC messages says which, e.g. `body 196 (SSE event
 * fields 23 + JSON-RPC 173)`, as the trace tables split it.
 */
function bytesLine(s: SequenceStep): string {
  const inner = s.body - s.bodyOutside;
  const split =
    s.bodyOutside > 0 && inner > 0 ? ` (${s.sse ? "SSE event fields" : "outside JSON-RPC"} ${formatInt(s.bodyOutside)} + JSON-RPC ${formatInt(inner)})` : "";
  const parts = [
    ["head", s.head],
    [`body`, s.body, split],
    ["chunks", s.framing],
    ["newline", s.newline],
  ] as const;
  return `${parts
    .filter(([, v]) => v > 0)
    .map(([n, v, more]) => `${n} ${formatInt(v)}${more ?? ""}`)
    .join(" · ")} bytes`;
}

/**
 * Draw the steps as an SVG document.
 * @param steps in wire order (see `sequenceSteps`)
 * @param title accessible title of the drawing (plain text)
 * @returns SVG source ending with a newline
 */
export function sequenceSvg(steps: readonly SequenceStep[], title: string): string {
  const height = TOP + STEP * steps.length + 20;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12" role="img">`,
    `<title>${xml(title)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>',
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${CLIENT_X}" y="16" text-anchor="middle" font-weight="bold">client</text>`,
    `<text x="${SERVER_X}" y="16" text-anchor="middle" font-weight="bold">server</text>`,
    `<line x1="${CLIENT_X}" y1="24" x2="${CLIENT_X}" y2="${height - 8}" stroke="#999" stroke-dasharray="4 3"/>`,
    `<line x1="${SERVER_X}" y1="24" x2="${SERVER_X}" y2="${height - 8}" stroke="#999" stroke-dasharray="4 3"/>`,
  ];
  steps.forEach((s, i) => {
    const y = TOP + STEP * i + 22;
    const [from, to] = s.dir === "c2s" ? [CLIENT_X, SERVER_X] : [SERVER_X, CLIENT_X];
    const label = s.label.length > 96 ? `${s.label.slice(0, 95)}…` : s.label;
    out.push(
      `<text x="${WIDTH / 2}" y="${y - 6}" text-anchor="middle">${xml(label)}</text>`,
      `<line x1="${from}" y1="${y}" x2="${to}" y2="${y}" stroke="#333" marker-end="url(#arrow)"/>`,
      `<text x="${WIDTH / 2}" y="${y + 14}" text-anchor="middle" font-size="10" fill="#555">${xml(bytesLine(s))}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
