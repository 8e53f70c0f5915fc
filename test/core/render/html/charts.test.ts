/**
 * The HTML report's inline SVG charts: what a reader sees is each bar's length, each bin's height, where a threshold
 * sits and what each label says, so those are what these tests read back from the SVG.
 */
import { describe, expect, it } from 'vitest';
import { barChart, histogram, rangeChart, trendChart } from '../../../../functions/core/render/html/charts.ts';

/** The values of one attribute on every element of a tag, in document order. */
function attrs(svg: string, tag: string, attr: string): string[] {
  return [...svg.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'g'))].map(
    (m) => new RegExp(`\\s${attr}="([^"]*)"`).exec(m[0])?.[1] ?? '',
  );
}

/** The text of every `<text>` element with a class. */
function texts(svg: string, cls: string): string[] {
  return [...svg.matchAll(new RegExp(`<text[^>]*class="${cls}"[^>]*>([^<]*)</text>`, 'g'))].map((m) => m[1] ?? '');
}

describe('barChart', () => {
  // The bars span 280 px from x = 150: a value's bar is value / max of that.
  it('draws each bar in proportion to its value, clamped to the scale', () => {
    const svg = barChart({
      title: 'Pass rate',
      max: 100,
      bars: [
        { label: 'half', value: 50 },
        { label: 'full', value: 100 },
        { label: 'over', value: 150 },
        { label: 'under', value: -20 },
      ],
    }).value;
    expect(attrs(svg, 'rect', 'width')).toEqual(['140', '280', '280', '1']);
    expect(attrs(svg, 'rect', 'x')).toEqual(['150', '150', '150', '150']);
    expect(attrs(svg, 'rect', 'y')).toEqual(['4', '26', '48', '70']);
  });

  it('keeps a zero visible as a one-pixel bar, and draws no bar for a figure that could not be computed', () => {
    const svg = barChart({
      title: 't',
      max: 100,
      unit: '%',
      bars: [
        { label: 'zero', value: 0 },
        { label: 'none', value: null },
      ],
    }).value;
    expect(attrs(svg, 'rect', 'width')).toEqual(['1', '0']);
    expect(texts(svg, 'value')).toEqual(['0%', 'n/a']);
    expect(attrs(svg, 'text', 'x').filter((_, i) => i % 2 === 1)).toEqual(['154', '154']);
  });

  it('writes each value with its unit and note just past the end of its bar', () => {
    const svg = barChart({ title: 't', max: 100, unit: '%', bars: [{ label: 'a', value: 62.5, note: '(5/8)' }] }).value;
    expect(texts(svg, 'value')).toEqual(['62.5% (5/8)']);
    expect(attrs(svg, 'text', 'x')).toEqual(['144', '329']);
  });

  it('colours a bar green when good, red when not, and neutral when no threshold applies', () => {
    const svg = barChart({
      title: 't',
      max: 1,
      bars: [
        { label: 'a', value: 1, good: true },
        { label: 'b', value: 1, good: false },
        { label: 'c', value: 1 },
      ],
    }).value;
    expect(attrs(svg, 'rect', 'class')).toEqual(['bar good', 'bar bad', 'bar']);
  });

  it('draws the threshold as a line at its value, labelled, below the bars', () => {
    const svg = barChart({ title: 't', max: 100, unit: '%', threshold: 90, bars: [{ label: 'a', value: 50 }] }).value;
    expect(svg).toContain('<line x1="402" x2="402" y1="0" y2="30" class="threshold"/>');
    expect(svg).toContain('<text x="402" y="42" text-anchor="middle" class="label">threshold 90%</text>');
    expect(svg).toContain('viewBox="0 0 560 44" width="560" height="44"');
  });

  it('draws no threshold line when there is none, and sizes the chart to its bars', () => {
    const svg = barChart({
      title: 't',
      max: 100,
      bars: [
        { label: 'a', value: 50 },
        { label: 'b', value: 60 },
      ],
    }).value;
    expect(svg).toBe(
      `<svg class="chart" role="img" viewBox="0 0 560 52" width="560" height="52"><title>t</title>
<text x="144" y="16" text-anchor="end" class="label">a</text>
<rect x="150" y="4" width="140" height="14" class="bar"/>
<text x="294" y="16" class="value">50</text><text x="144" y="38" text-anchor="end" class="label">b</text>
<rect x="150" y="26" width="168" height="14" class="bar"/>
<text x="322" y="38" class="value">60</text>

</svg>`,
    );
  });

  it('cuts a label over 24 characters and escapes it and the title', () => {
    const svg = barChart({
      title: '<t>',
      max: 1,
      bars: [
        { label: 'x'.repeat(24), value: 1 },
        { label: `<b>${'y'.repeat(30)}`, value: 1 },
      ],
    }).value;
    expect(svg).toContain('<title>&lt;t&gt;</title>');
    expect(texts(svg, 'label')).toEqual(['x'.repeat(24), `&lt;b&gt;${'y'.repeat(20)}…`]);
  });
});

describe('histogram', () => {
  // Four bins over [0, 1]: 0.25 wide; out-of-range values land in the end bins, NaN nowhere.
  const draw = () =>
    histogram({
      title: 'Best',
      values: [0, 0.24, 0.25, 0.99, 1, 1.5, -0.5, Number.NaN],
      min: 0,
      max: 1,
      bins: 4,
    }).value;

  it('counts each value in its bin, a value at the top edge in the last one, out-of-range ones in the end bins', () => {
    const svg = draw();
    expect(texts(svg, 'value')).toEqual(['3', '1', '3']);
  });

  it('draws each bin as tall as its count against the fullest bin (120 px)', () => {
    const svg = draw();
    expect(attrs(svg, 'rect', 'height')).toEqual(['120', '40', '0', '120']);
    expect(attrs(svg, 'rect', 'y')).toEqual(['4', '84', '124', '4']);
    expect(attrs(svg, 'rect', 'x')).toEqual(['21', '151', '281', '411']);
    expect(attrs(svg, 'rect', 'width')).toEqual(['128', '128', '128', '128']);
  });

  it('puts each count above its bin and labels the scale at its ends and middle', () => {
    const svg = draw();
    expect(attrs(svg, 'text', 'x')).toEqual(['85', '215', '475', '20', '280', '540']);
    expect(attrs(svg, 'text', 'y').slice(0, 3)).toEqual(['0', '80', '0']);
    expect(texts(svg, 'label')).toEqual(['0', '0.5', '1']);
  });

  it('bins values on a scale that starts elsewhere than 0 and spans more than 1', () => {
    // Four bins of 5 over [10, 30].
    const svg = histogram({ title: 'ms', values: [10, 14.9, 15, 29.9, 30], min: 10, max: 30, bins: 4 }).value;
    expect(attrs(svg, 'rect', 'height')).toEqual(['120', '60', '0', '120']);
    expect(texts(svg, 'label')).toEqual(['10', '20', '30']);
  });

  it('draws empty bins and no count when there is no value', () => {
    const empty = histogram({ title: 'Best', values: [], min: 0.5, max: 1, bins: 2 }).value;
    expect(attrs(empty, 'rect', 'height')).toEqual(['0', '0']);
    expect(texts(empty, 'value')).toEqual([]);
    expect(texts(empty, 'label')).toEqual(['0.5', '0.75', '1']);
  });
});

describe('histogram thresholds', () => {
  it('draws each threshold as a dashed line at its value on the scale, labelled, and none outside the scale', () => {
    // x = 20 + v * 520 on [0, 1]
    const svg = histogram({
      title: 'Best',
      values: [0.5],
      min: 0,
      max: 1,
      bins: 4,
      thresholds: [
        { value: 0.7, label: 'min_similarity 0.7' },
        { value: 0.25, label: 'b' },
        { value: 1.2, label: 'off the scale' },
      ],
    }).value;
    expect(svg).toContain(
      '<line x1="384" x2="384" y1="4" y2="128" class="threshold"/><text x="388" y="14" class="label threshold-label">min_similarity 0.7</text>',
    );
    expect(svg).toContain('<line x1="150" x2="150" y1="4" y2="128" class="threshold"/><text x="154" y="27"');
    expect(svg).not.toContain('off the scale');
  });
});

describe('rangeChart', () => {
  const stats = { min: 100, median: 290, avg: 300, p95: 500, max: 600 };

  it('marks min, median, mean, p95 and max on the scale, labels alternating below and above', () => {
    // x = 30 + (v - 100) / 500 * 500
    const svg = rangeChart({ title: 'Tokens', stats, unit: ' tok' }).value;
    expect(texts(svg, 'label')).toEqual(['min 100 tok', 'median 290 tok', 'avg 300 tok', 'p95 500 tok', 'max 600 tok']);
    expect(attrs(svg, 'text', 'x')).toEqual(['30', '220', '230', '430', '530']);
    expect(attrs(svg, 'text', 'y')).toEqual(['60', '12', '60', '12', '60']);
    expect(svg).toContain('<line x1="30" x2="530" y1="30" y2="30" class="axis"/>');
  });

  it('draws the box from the median to p95, at least 2 px wide', () => {
    expect(rangeChart({ title: 't', stats }).value).toContain(
      '<rect x="220" y="20" width="210" height="20" class="bar"/>',
    );
    expect(rangeChart({ title: 't', stats: { ...stats, p95: 290 } }).value).toContain('<rect x="220" y="20" width="2"');
  });

  it('leaves out the box and the marks that could not be computed', () => {
    const svg = rangeChart({ title: 't', stats: { ...stats, median: null, avg: null } }).value;
    expect(svg).not.toContain('<rect');
    expect(texts(svg, 'label')).toEqual(['min 100', 'p95 500', 'max 600']);
  });

  it('puts every mark at the start when all values are equal, instead of dividing by zero', () => {
    const svg = rangeChart({ title: 't', stats: { min: 5, median: 5, avg: 5, p95: 5, max: 5 } }).value;
    expect(attrs(svg, 'text', 'x')).toEqual(['30', '30', '30', '30', '30']);
  });

  it('says there is no data when the minimum or maximum is missing', () => {
    expect(rangeChart({ title: 'Tokens', stats: { ...stats, min: null } }).value).toBe(
      '<p class="muted">Tokens: no data</p>',
    );
    expect(rangeChart({ title: 'Tokens', stats: { ...stats, max: Number.NaN } }).value).toBe(
      '<p class="muted">Tokens: no data</p>',
    );
  });
});

describe('trendChart', () => {
  it('draws a point per run with a value, skipping runs without one, on the given scale', () => {
    // x spans 10..250 over the runs; y spans 80 (min) .. 10 (max).
    const svg = trendChart({
      title: 'Pass rate',
      unit: '%',
      min: 0,
      max: 10,
      threshold: 5,
      points: [
        { label: 'a', value: 0 },
        { label: 'b', value: null },
        { label: 'c', value: 10 },
      ],
    }).value;
    expect(svg).toContain('<polyline points="10,80 250,10" class="line"/>');
    expect(attrs(svg, 'circle', 'cx')).toEqual(['10', '250']);
    expect(attrs(svg, 'circle', 'cy')).toEqual(['80', '10']);
    expect(svg).toContain('<title>a: 0%</title>');
    expect(svg).toContain('<title>c: 10%</title>');
    expect(svg).toContain('<line x1="0" x2="260" y1="45" y2="45" class="threshold"/>');
  });

  it('shows the latest value in the caption', () => {
    const svg = trendChart({
      title: 'MRR',
      points: [
        { label: 'a', value: 0.5 },
        { label: 'b', value: 0.8123 },
        { label: 'c', value: null },
      ],
    }).value;
    expect(svg).toContain('<figcaption>MRR: <b>0.81</b></figcaption>');
  });

  it('scales to the values and the threshold when no range is given', () => {
    const svg = trendChart({
      title: 't',
      threshold: 6,
      points: [
        { label: 'a', value: 2 },
        { label: 'b', value: 4 },
      ],
    }).value;
    expect(attrs(svg, 'circle', 'cy')).toEqual(['80', '45']);
    expect(attrs(svg, 'line', 'y1')).toEqual(['10']);
  });

  it('scales to the values alone without a threshold', () => {
    const svg = trendChart({
      title: 't',
      points: [
        { label: 'a', value: 4 },
        { label: 'b', value: 2 },
      ],
    }).value;
    expect(attrs(svg, 'circle', 'cy')).toEqual(['10', '80']);
    expect(svg).not.toContain('threshold');
  });

  it('centres a single run and draws a flat series without dividing by zero', () => {
    const svg = trendChart({ title: 't', points: [{ label: 'a', value: 3 }] }).value;
    expect(attrs(svg, 'circle', 'cx')).toEqual(['130']);
    expect(attrs(svg, 'circle', 'cy')).toEqual(['80']);
  });

  it('says there is no data when no run has a value', () => {
    expect(trendChart({ title: 'MRR', points: [{ label: 'a', value: null }] }).value).toBe(
      '<p class="muted">MRR: no data</p>',
    );
  });
});

describe('a small chart of each kind, whole', () => {
  it('draws a histogram of one value: its bin full height with its count, the other empty, the scale below', () => {
    expect(histogram({ title: 'h', values: [0.5], min: 0, max: 1, bins: 2 }).value).toBe(
      `<svg class="chart" role="img" viewBox="0 0 560 156" width="560" height="156"><title>h</title>
<rect x="21" y="124" width="258" height="0" class="bar"/><rect x="281" y="4" width="258" height="120" class="bar"/><text x="410" y="0" text-anchor="middle" class="value">1</text>
<text x="20" y="142" text-anchor="middle" class="label">0</text><text x="280" y="142" text-anchor="middle" class="label">0.5</text><text x="540" y="142" text-anchor="middle" class="label">1</text>
</svg>`,
    );
  });

  it('draws a distribution without median and mean as its axis and the three marks it has, no box', () => {
    expect(rangeChart({ title: 't', stats: { min: 100, median: null, avg: null, p95: 500, max: 600 } }).value).toBe(
      `<svg class="chart" role="img" viewBox="0 0 560 70" width="560" height="70"><title>t</title>
<line x1="30" x2="530" y1="30" y2="30" class="axis"/>

<line x1="30" x2="30" y1="16" y2="44" class="tick"/><text x="30" y="60" text-anchor="middle" class="label">min 100</text><line x1="430" x2="430" y1="16" y2="44" class="tick"/><text x="430" y="12" text-anchor="middle" class="label">p95 500</text><line x1="530" x2="530" y1="16" y2="44" class="tick"/><text x="530" y="60" text-anchor="middle" class="label">max 600</text>
</svg>`,
    );
  });

  it('draws a trend without threshold as its line and a dot per run with a value, none for the run without', () => {
    const points = [
      { label: 'a', value: 4 },
      { label: 'b', value: null },
      { label: 'c', value: 2 },
    ];
    expect(trendChart({ title: 't', points }).value).toBe(
      `<figure class="trend"><figcaption>t: <b>2</b></figcaption>
<svg class="chart" role="img" viewBox="0 0 260 90" width="260" height="90"><title>t</title>

<polyline points="10,10 250,80" class="line"/>
<circle cx="10" cy="10" r="3" class="dot"><title>a: 4</title></circle><circle cx="250" cy="80" r="3" class="dot"><title>c: 2</title></circle>
</svg></figure>`,
    );
  });
});
