/** The report's stylesheet, inline: readable at 3 a.m. (large verdict, red for what broke), in print, and offline. */
export const REPORT_CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b6570;--line:#d8dde3;--good:#1f7a3a;--bad:#c62828;--warn:#b26a00;--bar:#4a6fa5;--soft:#f4f6f8}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1200px;margin:0 auto;padding:0 24px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:15px;margin:14px 0 6px}h4{font-size:15px;margin:0 0 4px}
.verdict{display:flex;gap:20px;align-items:center;padding:18px 24px;margin:0 -24px 8px;color:#fff}
.verdict.unknown{background:var(--muted)}.verdict.passed{background:var(--good)}.verdict.failed{background:var(--bad)}.verdict.error{background:#6d1b1b}
.verdict .badge{font-size:28px;font-weight:800;letter-spacing:1px;border:3px solid #fff;border-radius:8px;padding:6px 14px}
.verdict p{margin:2px 0}.verdict .meta{opacity:.85;font-size:13px}
nav{font-size:13px;margin:6px 0 0}nav a{margin-right:14px;color:var(--bar)}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--soft);font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.breach td{background:#fdecea}tr.breach .mark{color:var(--bad);font-weight:800}tr.ok .mark{color:var(--good)}tr.unjudged td{color:var(--muted);font-style:italic}
.sev.critical,.sev.high{color:var(--bad);font-weight:700}.sev.medium{color:var(--warn);font-weight:600}
.muted{color:var(--muted)}.note{background:#fff8e1;padding:6px 10px;border-left:3px solid var(--warn)}
.figures{background:var(--soft);padding:8px 12px;border-radius:6px}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(420px,100%),1fr));gap:8px 28px}
.tag{display:inline-block;font-size:12px;font-weight:700;padding:1px 7px;border-radius:10px;color:#fff;background:var(--muted)}
.tag.pass{background:var(--good)}.tag.fail{background:var(--bad)}.tag.error{background:#6d1b1b}.tag.unjudged{background:var(--muted)}
article{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}
.query .why,.answer .why{color:var(--bad)}.question{font-style:italic;margin:4px 0}
.chunks{margin:6px 0;padding-left:22px}.chunks li{margin:6px 0}.score{font-family:ui-monospace,monospace;font-weight:700}
blockquote{margin:4px 0 0;padding:4px 10px;border-left:3px solid var(--line);color:#3a424b;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}
.url{overflow-wrap:anywhere;font-size:13px}ul.urls{max-height:360px;overflow:auto;margin:0;padding-left:18px}
mark{background:#fff1a8}.answer{overflow-wrap:anywhere}.response{background:var(--soft);padding:4px 12px;border-radius:6px}.citations{font-size:12px;color:var(--muted)}
.chart{max-width:100%;height:auto;display:block}.chart .label{font-size:11px;fill:var(--muted)}.chart .value{font-size:11px;fill:var(--fg)}
.chart .bar{fill:var(--bar)}.chart .bar.good{fill:var(--good)}.chart .bar.bad{fill:var(--bad)}
.chart .threshold{stroke:var(--bad);stroke-dasharray:4 3;stroke-width:1.5}.chart .axis,.chart .tick{stroke:var(--muted)}
.chart .line{fill:none;stroke:var(--bar);stroke-width:2}.chart .dot{fill:var(--bar)}
.trends{display:flex;flex-wrap:wrap;gap:12px}.trend{margin:0;border:1px solid var(--line);border-radius:8px;padding:6px 8px}
.trend figcaption{font-size:13px}dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}dt{color:var(--muted)}dd{margin:0}
details summary{cursor:pointer;color:var(--bar);font-size:13px}table.failures{margin-bottom:12px}
footer{margin-top:40px;font-size:12px;color:var(--muted)}
.act{border:2px solid var(--line);border-radius:8px;padding:2px 14px 8px;margin:12px 0}.act h2{margin-top:10px}
ol.actions{margin:0;padding-left:22px}ol.actions li{margin:8px 0}.act .what{overflow-wrap:anywhere}.act .do{font-size:14px}
.sev.low{color:var(--muted)}a.docs{overflow-wrap:anywhere}details.passing{margin-top:8px}
.chart .threshold-label{fill:var(--bad)}
@media (max-width:640px){
main{padding:0 12px 32px}
.verdict{margin:0 -12px 8px;padding:12px;gap:8px 12px;flex-wrap:wrap}.verdict .badge{font-size:18px;padding:2px 8px;border-width:2px}
.verdict .reason{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:3;overflow:hidden}
h1{font-size:18px}h2{font-size:17px;margin-top:24px}
table{font-size:12.5px}th,td{padding:4px 4px;overflow-wrap:anywhere}td.num{white-space:normal}th{overflow-wrap:normal}
td.sev,.tag{overflow-wrap:normal;white-space:nowrap}
.act{padding:2px 10px 6px}ol.actions{padding-left:18px}
dl.fields{grid-template-columns:minmax(0,1fr)}dd{margin:0 0 4px 10px;overflow-wrap:anywhere;min-width:0}a{overflow-wrap:anywhere}
}
@media print{.verdict{print-color-adjust:exact;-webkit-print-color-adjust:exact}ul.urls{max-height:none}}
`;
