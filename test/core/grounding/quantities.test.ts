/** Numbers in words and quantities with units (quantities.ts). */
import { describe, expect, it } from 'vitest';
import {
  isNumberWord,
  isUnitWord,
  type Quantity,
  sameQuantity,
  statedNumbers,
  statedQuantities,
} from '../../../functions/core/grounding/quantities.ts';

const one = (text: string, lenient = false): Quantity => {
  const [q] = statedQuantities(text, { lenient });
  if (q === undefined) throw new Error(`no quantity in ${text}`);
  return q;
};

describe('statedNumbers', () => {
  it('reads digits as written and number words as their value', () => {
    expect(statedNumbers('Ubuntu 22.04 runs 1,000 nodes on five hosts and twenty-five disks.')).toEqual([
      '22.04',
      '1000',
      '5',
      '25',
    ]);
  });

  it('joins number words into one number', () => {
    expect(statedNumbers('two hundred and forty hertz, thirty hertz, one thousand nodes')).toEqual([
      '240',
      '30',
      '1000',
    ]);
  });

  it('reads "one", "half" and "hundred" alone as numbers before a unit only, unless lenient', () => {
    expect(statedNumbers('the one that runs, one of them, hundred of hertz')).toEqual([]);
    expect(statedNumbers('a step of one millisecond')).toEqual(['1']);
    expect(statedNumbers('the one that runs', { lenient: true })).toEqual(['1']);
  });

  it('reads a plural magnitude as its order of size, so "tens" of a thing is not "hundreds" of it', () => {
    expect(
      statedNumbers('tens of hertz, hundreds of hertz, thousands of images, dozens of runs, millions of points'),
    ).toEqual(['10', '100', '1000', '12', '1000000']);
    expect(['tens', 'dozens', 'hundreds', 'thousands', 'millions'].every(isNumberWord)).toBe(true);
  });

  it('does not read a digit glued to a word as a number', () => {
    expect(statedNumbers('Nav2 runs on ROS2')).toEqual([]);
  });

  it('does not read a number glued to letters that are no unit as a number: a version, a commit id', () => {
    expect(statedNumbers('0.1pl2 cannot do this')).toEqual([]);
    expect(statedNumbers('1.2rc1 and commit 187e165, then 306cfcf')).toEqual([]);
    expect(statedNumbers('0.1pl2 cannot do this', { lenient: true })).toEqual([]);
  });

  it('reads a number glued to its unit, a factor, thousands, an ordinal or dimensions', () => {
    expect(
      statedNumbers('64GB, 5ms, 10MB/s, 900kbytes, 2x faster, 100k blocks, the 99th percentile, a 3D map'),
    ).toEqual(['64', '5', '10', '900', '2', '100', '99', '3']);
    expect(statedQuantities('64GB in 5ms at 10MB/s').map((q) => [q.value, q.dimension])).toEqual([
      [64e9, 'data'],
      [0.005, 'time'],
      [1e7, 'data/time'],
    ]);
  });
});

describe('statedQuantities', () => {
  it('reads a number with its unit in the dimension’s base', () => {
    expect(one('Nav2 needs 64 GB of RAM')).toMatchObject({ raw: '64', number: '64', value: 64e9, dimension: 'data' });
    expect(one('a step of one millisecond')).toMatchObject({ number: '1', value: 0.001, dimension: 'time' });
    expect(one('96°C')).toMatchObject({ value: 96, dimension: 'celsius' });
    expect(one('200 MB/s')).toMatchObject({ value: 200e6, dimension: 'data/time' });
  });

  it('shares a range’s unit between its two numbers', () => {
    expect(statedQuantities('the oven at 230 to 250 °C for 20-30 minutes').map((q) => [q.value, q.dimension])).toEqual([
      [230, 'celsius'],
      [250, 'celsius'],
      [1200, 'time'],
      [1800, 'time'],
    ]);
  });

  it('reads "a minute" as one minute, and "a second" only on the lenient (evidence) side', () => {
    expect(one('for up to a minute')).toMatchObject({ value: 60 });
    expect(statedQuantities('a second replica')).toEqual([]);
    expect(one('a second or more', true)).toMatchObject({ value: 1, dimension: 'time' });
  });

  it('reads no quantity from a number without a unit', () => {
    expect(statedQuantities('port 7500 and 3 replicas')).toEqual([]);
  });
});

describe('sameQuantity', () => {
  it('compares by dimension and value across units', () => {
    expect(sameQuantity(one('1000 ms'), one('a second', true))).toBe(true);
    expect(sameQuantity(one('16 MB'), one('16 GB'))).toBe(false);
    expect(sameQuantity(one('16 GB'), one('16 gigabytes'))).toBe(true);
    expect(sameQuantity(one('30 Hz'), one('30 s'))).toBe(false);
  });

  it('converts temperatures to the degree, both sides of the bound', () => {
    expect(sameQuantity(one('205 °F'), one('96 °C'))).toBe(true); // 96.1 °C
    expect(sameQuantity(one('206 °F'), one('96 °C'))).toBe(true); // 96.7 °C
    expect(sameQuantity(one('207 °F'), one('96 °C'))).toBe(false); // 97.2 °C
    expect(sameQuantity(one('96 °C'), one('97 °C'))).toBe(false);
  });
});

describe('isNumberWord and isUnitWord', () => {
  it('knows number words and units, and not the ambiguous words', () => {
    expect([isNumberWord('five'), isNumberWord('twenty-five'), isNumberWord('one'), isNumberWord('node')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([isUnitWord('gb'), isUnitWord('minutes'), isUnitWord('node')]).toEqual([true, true, false]);
  });
});

describe('number words joined, and where they are not', () => {
  it('joins a hundreds figure and a smaller number, a tens figure and a unit, and a multiplier after a smaller word', () => {
    expect(
      ['three hundred two', 'three hundred twenty', 'twenty five', 'one thousand', 'five hundred'].map((t) =>
        statedNumbers(t),
      ),
    ).toEqual([['302'], ['320'], ['25'], ['1000'], ['500']]);
  });

  it('keeps apart numbers that do not make one: digits, a tens figure then a tens figure, a teen then a unit', () => {
    expect(
      ['300 twenty', 'twenty 5', 'twenty thirty', 'fifteen five', 'three hundred, four hundred', 'two, three'].map(
        (t) => statedNumbers(t),
      ),
    ).toEqual([
      ['300', '20'],
      ['20', '5'],
      ['20', '30'],
      ['15', '5'],
      ['300', '400'],
      ['2', '3'],
    ]);
  });

  it('does not join across other words, and leaves "one" after a tens figure to the unit rule', () => {
    expect(['two big hundred', 'twenty one', 'hundred five'].map((t) => statedNumbers(t))).toEqual([
      ['2'],
      ['20'],
      ['5'],
    ]);
  });

  it('does not read a multiplier after a larger number as a product', () => {
    expect(statedNumbers('two thousand hundred', { lenient: true })).toEqual(['2000', '100']);
  });

  it('reads "a" as one only before a unit, and "a second" as a duration on the evidence side only', () => {
    expect([
      one('an hour').value,
      one('a minute').value,
      statedQuantities('a second replica'),
      one('a second', true).value,
      statedNumbers('a hundred nodes'),
    ]).toEqual([3600, 60, [], 1, []]);
  });

  it('does not join a number word and the article of a unit: "twenty a day" is 20 per day, not 21 days', () => {
    expect([statedNumbers('twenty a day'), statedQuantities('sixty a minute').map((q) => q.value)]).toEqual([
      ['20', '1'],
      [60],
    ]);
  });

  it('reads only "a" and "an" as an article, not a word that starts or ends like one', () => {
    expect([
      statedQuantities('the node may restart any minute'),
      statedQuantities('AWS bills Lambda GB-seconds'),
      statedQuantities('an extra hour'),
    ]).toEqual([[], [], []]);
  });

  it('reads "a millisecond" and "a minute" as durations on the claim side too: only "a second" is also an ordinal', () => {
    expect([one('within a millisecond').value, one('within a minute').value, statedQuantities('a second')]).toEqual([
      0.001,
      60,
      [],
    ]);
  });

  it('reads decimals with a comma and drops thousands separators', () => {
    expect([statedNumbers('10,000,000 points'), one('1,5 GB').value, statedNumbers('1,25 and 3,5000')]).toEqual([
      ['10000000'],
      1.5e9,
      ['1,25', '3,5000'],
    ]);
  });
});

describe('quantities with compound units and ranges', () => {
  it('reads a rate as its two units, and no quantity when either is not a unit', () => {
    const rate = one('10 MB/s');
    expect([rate.dimension, rate.value, statedQuantities('10 MB/xyz'), statedQuantities('10 xyz/s')]).toEqual([
      'data/time',
      1e7,
      [],
      [],
    ]);
    expect(sameQuantity(rate, one('600 MB/min'))).toBe(true);
    expect(sameQuantity(rate, one('10 MB/min'))).toBe(false);
  });

  it('gives both ends of a range its unit, and nothing to numbers without one', () => {
    expect(statedQuantities('230 to 250 °C').map((q) => q.value)).toEqual([230, 250]);
    expect(statedQuantities('one to three hours').map((q) => q.value)).toEqual([3600, 10800]);
    expect(statedQuantities('10 and 20 ms').map((q) => q.value)).toEqual([0.01, 0.02]);
    expect(statedQuantities('5 and 10 then 20 ms').map((q) => q.value)).toEqual([0.02]);
    expect(statedQuantities('5 and 10')).toEqual([]);
    expect(statedQuantities('5 GB then 10 GB').map((q) => q.number)).toEqual(['5', '10']);
    expect(statedQuantities('twenty five minutes').map((q) => [q.number, q.value])).toEqual([['25', 1500]]);
  });

  it('compares a converted temperature to the degree, and other units exactly', () => {
    expect([
      sameQuantity(one('96 °C'), one('205 °F')),
      sameQuantity(one('97.2 °C'), one('205 °F')),
      sameQuantity(one('94.8 °C'), one('205 °F')),
      sameQuantity(one('100 °C'), one('100 °F')),
      sameQuantity(one('1000 ms'), one('1 s')),
      sameQuantity(one('1001 ms'), one('1 s')),
      sameQuantity(one('16 MB'), one('16 GB')),
    ]).toEqual([true, false, false, false, true, false, false]);
  });
});
