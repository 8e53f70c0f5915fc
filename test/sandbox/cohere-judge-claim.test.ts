/**
 * The chat stand-in's claim judge (sandbox/cohere/judge-claim.ts), a rule-based NLI: each rule on a claim it must
 * catch and on the faithful claim beside it, so no rule holds by flagging everything. Its figures on the evaluation
 * set are the bench's (docs/GROUNDING.md); the route over HTTP is tested in test/adapters/cohere/judge.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { judgeClaim, judgeStatements, splitStatements } from '../../sandbox/cohere/judge-claim.ts';
import { answerJudge } from '../../sandbox/cohere/judge-route.ts';
import { flipNegation } from '../../sandbox/cohere/rewrite-claims.ts';

const passage = (text: string, id = 'p1') => [{ id, text }];
const URDF = passage(
  'URDF describes a robot as a tree of links joined by joints.\nIt cannot describe closed kinematic loops, so a\nparallel linkage needs a workaround.',
);

describe('judgeClaim', () => {
  it('supports a claim the passage states, quoting the sentence verbatim (line breaks and all)', () => {
    const verdict = judgeClaim('URDF cannot describe closed kinematic loops.', URDF);
    expect(verdict).toEqual({
      verdict: 'supported',
      chunk_id: 'p1',
      evidence: 'It cannot describe closed kinematic loops, so a\nparallel linkage needs a workaround.',
      reason: 'the passage states it',
    });
    expect(URDF[0]?.text).toContain(verdict.evidence);
  });

  it('contradicts a flipped negation, either way round, and a denial of the whole claim', () => {
    expect(judgeClaim('URDF can describe closed kinematic loops.', URDF).verdict).toBe('contradicted');
    expect(judgeClaim('URDF does not describe a robot as a tree of links.', URDF).verdict).toBe('contradicted');
    expect(judgeClaim('It is not true that URDF describes a robot as a tree of links.', URDF)).toMatchObject({
      verdict: 'contradicted',
      reason: 'the claim denies what the passage states',
    });
    expect(judgeClaim('It is not true that URDF runs on Mars.', URDF).verdict).toBe('not_in_context');
  });

  it('reads numbers by value and unit: the same quantity in other units is supported, another figure is not', () => {
    const timing = passage('The controller runs every 1000 ms. The planner replans at 2 Hz on a 16 GB machine.');
    expect(judgeClaim('The controller runs every second.', timing).verdict).toBe('supported');
    expect(judgeClaim('The controller runs every 500 ms.', timing).verdict).toBe('contradicted');
    expect(judgeClaim('The planner replans at two hertz.', timing).verdict).toBe('supported');
    expect(judgeClaim('The planner replans at 2 Hz on a 16 MB machine.', timing).verdict).toBe('contradicted');
    expect(judgeClaim('Nav2 needs 64 GB of RAM.', timing)).toMatchObject({ verdict: 'not_in_context' });
    const temperature = passage('Bake at 230 °C for twenty minutes.');
    expect(judgeClaim('Bake at 446 °F for 20 minutes.', temperature).verdict).toBe('supported');
    expect(judgeClaim('Bake at two hundred and thirty degrees Celsius for 20 minutes.', temperature).verdict).toBe(
      'supported',
    );
  });

  it('contradicts two names exchanged, and leaves a reworded order alone', () => {
    const frames = passage('Unity uses a left-handed frame with Y up, while ROS uses a right-handed frame with Z up.');
    expect(
      judgeClaim('ROS uses a left-handed frame with Y up, while Unity uses a right-handed frame with Z up.', frames),
    ).toMatchObject({ verdict: 'contradicted', reason: 'the passage has ros and unity the other way round' });
    expect(judgeClaim('Unity uses a left-handed frame with Y up.', frames).verdict).toBe('supported');
  });

  it('reads two names exchanged in one sentence when the next sentence uses them again, and short names', () => {
    const pings = passage(
      'Each server sends pings to its clients every 2 seconds. If the clients of a server hear nothing for 9 seconds, they reconnect.',
    );
    expect(judgeClaim('Each client sends pings to its server every 2 seconds.', pings).verdict).toBe('contradicted');
    expect(judgeClaim('Every 2 seconds each server pings its clients.', pings).verdict).toBe('supported');
    const boards = passage('The T5 is too slow for vision, so pick the R7 (about $40) instead.');
    expect(judgeClaim('The R7 is too slow for vision, so pick the T5 (about $40) instead.', boards).verdict).toBe(
      'contradicted',
    );
    expect(judgeClaim('The T5 is too slow for vision, so pick the R7 instead.', boards).verdict).toBe('supported');
  });

  it('reads an answer\'s "No,", "non-", near negators, "instead of" and "rather than", and "none" after a label', () => {
    const gpu = passage('Old laptops and non-GPU desktops will not run the simulator.');
    expect(judgeClaim('A desktop without a GPU will not run the simulator.', gpu).verdict).toBe('supported');
    expect(judgeClaim('A desktop with a GPU will not run the simulator.', gpu).verdict).toBe('contradicted');
    const tabs = passage('The parser does not accept tabs in keys.');
    expect(judgeClaim('No, the parser does not accept tabs in keys.', tabs).verdict).toBe('supported');
    expect(judgeClaim('No, the parser accepts tabs in keys.', tabs).verdict).toBe('contradicted');
    const dough = passage('Cold dough would barely rise overnight. Fold the dough instead of kneading it.');
    expect(judgeClaim('Cold dough would not rise overnight.', dough).verdict).toBe('supported');
    expect(judgeClaim('Cold dough would rise overnight.', dough).verdict).toBe('contradicted');
    expect(judgeClaim('Do not knead the dough; fold it.', dough).verdict).toBe('supported');
    expect(judgeClaim('Knead the dough.', dough).verdict).toBe('contradicted');
    const alerts = passage('A full disk deserves a warning rather than a page.');
    expect(judgeClaim('A full disk deserves a page.', alerts).verdict).toBe('contradicted');
    expect(judgeClaim('A full disk deserves a warning.', alerts).verdict).toBe('supported');
    const steps = passage('Migration steps: none for the third release.');
    expect(judgeClaim('The third release needs no migration steps.', steps).verdict).toBe('supported');
    expect(judgeClaim('The third release needs migration steps.', steps).verdict).toBe('contradicted');
  });

  it('leaves the rest of a denied clause unstated, and reads a figure after a name in the passage', () => {
    const proof = passage('Proofing ends by feel rather than by the clock.');
    expect(judgeClaim('You cannot time proofing by the clock.', proof).verdict).toBe('supported');
    const board = passage('The kit ships with an Orin NX (16GB) board.');
    expect(judgeClaim('The kit ships with a board of 16 GB.', board).verdict).toBe('supported');
    expect(judgeClaim('The kit ships with a board of 32 GB.', board).verdict).not.toBe('supported');
  });

  it('contradicts an antonym, and finds a certainty the passage only allows not in context', () => {
    const params = passage('The namespace argument is optional. A model trained on synthetic data may still fail.');
    expect(judgeClaim('The namespace argument is required.', params).verdict).toBe('contradicted');
    expect(judgeClaim('A model trained on synthetic data will fail.', params).verdict).toBe('not_in_context');
    expect(judgeClaim('A model trained on synthetic data might fail.', params).verdict).toBe('supported');
  });

  it('finds an uncited tail and a claim about something else not in context; reads general synonyms', () => {
    expect(
      judgeClaim('URDF describes a robot as a tree of links, and Gazebo renders photorealistic clouds at night.', URDF)
        .verdict,
    ).toBe('not_in_context');
    expect(judgeClaim('Isaac Sim renders photorealistic scenes with ray tracing.', URDF).verdict).toBe(
      'not_in_context',
    );
    const labels = passage('Labelling real images by hand is slow, expensive and error-prone.');
    expect(judgeClaim('Labelling real pictures by hand is sluggish and costly.', labels).verdict).toBe('supported');
    expect(judgeClaim('Anything.', [])).toMatchObject({ verdict: 'not_in_context' });
  });
});

describe('splitStatements', () => {
  it('splits at a semicolon and at a coordinated clause with its own verb, writing in a shared subject', () => {
    expect(splitStatements('Isaac Sim runs on Ubuntu and needs 64 GB of RAM.')).toEqual([
      'Isaac Sim runs on Ubuntu.',
      'Isaac Sim needs 64 GB of RAM.',
    ]);
    expect(
      splitStatements('RViz computes the position of every part, and robot_state_publisher draws the robot.'),
    ).toEqual(['RViz computes the position of every part.', 'robot_state_publisher draws the robot.']);
    expect(splitStatements('The planner reads the map; it needs 8 GB.')).toEqual([
      'The planner reads the map.',
      'It needs 8 GB.',
    ]);
    expect(splitStatements('Nav2 plans a path, but the controller follows it while the robot moves.')).toEqual([
      'Nav2 plans a path.',
      'The controller follows it.',
      'The robot moves.',
    ]);
    expect(splitStatements('The node publishes a pose and subscribes to a scan and reads a map.')).toEqual([
      'The node publishes a pose.',
      'The node subscribes to a scan.',
      'The node reads a map.',
    ]);
  });

  it('leaves a sentence with one verb, a list of names, a clause without a verb before it, and a whole denial alone', () => {
    for (const claim of [
      'RViz and Gazebo run ROS 2.',
      'The robot carries a camera and a lidar.',
      'Cameras and lidars feed the planner.',
      'It is not true that the node publishes poses and reads maps.',
      'URDF describes a tree.',
    ])
      expect(splitStatements(claim), claim).toEqual([claim]);
    expect(splitStatements('  ; ')).toEqual([';']);
  });
  it('writes each statement as a sentence: markup dropped, a pronoun capitalised, a full stop, a name kept as written', () => {
    expect(splitStatements('**Setup.** The `colcon` tool builds the workspace and sources its overlay')).toEqual([
      'The colcon tool builds the workspace.',
      'The colcon tool sources its overlay.',
    ]);
    expect(splitStatements('## The launcher starts two nodes, and it restarts a node that dies.')).toEqual([
      'The launcher starts two nodes.',
      'The launcher restarts a node that dies.',
    ]);
    expect(splitStatements('- The map server loads the map, and rclpy_helper publishes it.')).toEqual([
      'The map server loads the map.',
      'rclpy_helper publishes it.',
    ]);
    // One statement: the markup goes all the same, a label with a number stays (its digit is the claim's).
    expect(splitStatements('**Safety:** The arm __stops__ when the door opens.')).toEqual([
      'The arm stops when the door opens.',
    ]);
    expect(splitStatements('**Step 2.** The arm stops.')).toEqual(['Step 2. The arm stops.']);
  });

  it('writes "it" or "they" out as the subject before it, when that subject is plain words of the same number', () => {
    expect(splitStatements('The arm also lifts the boxes, but it is slow.')).toEqual([
      'The arm also lifts the boxes.',
      'The arm is slow.',
    ]);
    expect(splitStatements('The disks are cheap, but they are slow.')).toEqual([
      'The disks are cheap.',
      'The disks are slow.',
    ]);
    for (const [claim, kept] of [
      ['The drivers are fast, and it needs a reboot.', 'It needs a reboot.'],
      ['The arm lifts boxes, but they are heavy.', 'They are heavy.'],
      ['Large models (LLMs) are good, and it needs 8 GB.', 'It needs 8 GB.'],
      ['By default, the arm lifts boxes, and it needs a reboot.', 'It needs a reboot.'],
      ['Turning it off makes the arm safe, and it needs a reboot.', 'It needs a reboot.'],
      // "arms" is read as the verb: "The robot" may not be the subject, so "it" stays
      ['The robot arms lift boxes, and it needs a reboot.', 'It needs a reboot.'],
      ['Large language models are good, and it needs 8 GB.', 'It needs 8 GB.'],
    ])
      expect(splitStatements(claim as string)[1], claim).toBe(kept);
  });

  it('carries a verb after "and" to the subject only when it takes the form of the clause\'s verb', () => {
    expect(splitStatements('The driver trained the model and released it in May.')).toEqual([
      'The driver trained the model.',
      'The driver released it in May.',
    ]);
    expect(splitStatements('The planner is fast and handles narrow doors.')).toEqual([
      'The planner is fast.',
      'The planner handles narrow doors.',
    ]);
    expect(splitStatements('The encoder usually packs tighter than zlib but is slower.')).toEqual([
      'The encoder usually packs tighter than zlib.',
      'The encoder is usually slower.',
    ]);
    expect(splitStatements('The nodes are small and have no state.')).toEqual([
      'The nodes are small.',
      'The nodes have no state.',
    ]);
    // A comma before the verb: "24" is no subject of "is".
    expect(splitStatements('The driver supports Ubuntu 22 and 24, but it is not supported on macOS.')).toEqual([
      'The driver supports Ubuntu 22 and 24.',
      'It is not supported on macOS.',
    ]);
    expect(splitStatements('Keep the map small; when it grows, split it.')).toEqual([
      'Keep the map small.',
      'When it grows, split it.',
    ]);
    expect(splitStatements('The encoder often packs tighter and needs more memory.')).toEqual([
      'The encoder often packs tighter.',
      'The encoder often needs more memory.',
    ]);
    expect(splitStatements('The arm could reach the shelf and lifts two kilograms.')).toEqual([
      'The arm could reach the shelf.',
      'The arm lifts two kilograms.',
    ]);
    for (const claim of [
      // an adjective in -ed after "and", not a second verb of "is"
      'Whisper is a speech model, trained on a very large and varied set of audio.',
      // a participle after a past auxiliary shares it ("was"), so the statement would lose it
      'The dataset was collected in 2021 and released under a permissive licence.',
      // a verb after a relative word: "marks" may be the map's, not the planner's
      'The planner reads a map that shows walls and marks doors.',
      // a word in -s after a preposition is a noun; "sometimes" is no verb
      'Each node needs 8 GB of RAM, and 32 GB for nodes that hold logs.',
      'The unit holds a gyroscope, and sometimes a compass.',
      // two words in -s around "and": a pair of nouns, or of verbs sharing one object
      'The node uses apples and oranges from Spain.',
      'The store continues to serve reads and writes.',
      'The node publishes poses and subscribes to scans.',
      // a list of names before "and": "Unity" opens no clause
      'The rig runs Gazebo, Unity and Isaac and trains the models.',
      // a plural verb ("are") and a word in -s ("surroundings") share no subject; "hurdles" after "The" is no verb
      'The hurdles are noisy sensors and surroundings nobody can foresee.',
      // a noun in -s ending a list of nouns, not a verb
      'Headsets let a person study proximity, gaze and handovers before hardware is involved.',
    ])
      expect(splitStatements(claim), claim).toEqual([claim]);
  });
});

describe('judgeStatements', () => {
  it('judges each statement apart: a two-fact sentence with one false fact names it', () => {
    const sim = passage('Isaac Sim runs on Ubuntu. It needs a GPU with 8 GB of memory.');
    expect(judgeStatements('Isaac Sim runs on Ubuntu and needs 64 GB of memory.', sim)).toEqual([
      {
        statement: 'Isaac Sim runs on Ubuntu.',
        verdict: 'supported',
        chunk_id: 'p1',
        evidence: 'Isaac Sim runs on Ubuntu.',
        reason: 'the passage states it',
      },
      {
        statement: 'Isaac Sim needs 64 GB of memory.',
        verdict: 'contradicted',
        chunk_id: 'p1',
        evidence: 'It needs a GPU with 8 GB of memory.',
        reason: 'the passage gives another figure than 64 GB',
      },
    ]);
    expect(judgeStatements(' URDF cannot describe closed kinematic loops. ', URDF)).toEqual([
      {
        statement: 'URDF cannot describe closed kinematic loops.',
        ...judgeClaim('URDF cannot describe closed kinematic loops.', URDF),
      },
    ]);
  });

  it('keeps the whole sentence’s catch: two roles exchanged across its clauses go to the statements holding them', () => {
    const tf = passage('robot_state_publisher computes the position of every part, and RViz draws the robot.');
    const claim = 'RViz computes the position of every part, and robot_state_publisher draws the robot.';
    // Read alone, each clause holds one of the two names, and the passage has both.
    expect(splitStatements(claim).map((s) => judgeClaim(s, tf).verdict)).toEqual(['supported', 'supported']);
    const judged = judgeStatements(claim, tf);
    expect(judged.map((s) => [s.statement, s.verdict])).toEqual([
      ['RViz computes the position of every part.', 'contradicted'],
      ['robot_state_publisher draws the robot.', 'contradicted'],
    ]);
    expect(judged[0]?.reason).toMatch(/the other way round$/);
    const faithful = 'robot_state_publisher computes the position of every part, and RViz draws the robot.';
    expect(judgeStatements(faithful, tf).map((s) => s.verdict)).toEqual(['supported', 'supported']);
  });
});

describe('the judge route', () => {
  const message =
    '<passage id="p&quot;1">\nURDF cannot describe closed kinematic loops.\n</passage>\n\n<claim>\nURDF can describe closed kinematic loops.\n</claim>';
  const two =
    '<passage id="p1">\nURDF cannot describe closed kinematic loops.\n</passage>\n<passage id="p2">\nNav2 plans paths.\n</passage>\n\n<claim>\nNav2 plans paths, and URDF can describe closed kinematic loops.\n</claim>';

  it('reads the passages and the claim out of the message, and answers its statements as JSON', () => {
    expect(JSON.parse(answerJudge(message, 'normal'))).toEqual({
      statements: [
        {
          statement: 'URDF can describe closed kinematic loops.',
          verdict: 'contradicted',
          chunk_id: 'p"1',
          evidence: 'URDF cannot describe closed kinematic loops.',
          reason: 'one side denies "describ", the other states it',
        },
      ],
    });
    expect(JSON.parse(answerJudge(two, 'normal')).statements.map((s: { verdict: string }) => s.verdict)).toEqual([
      'supported',
      'contradicted',
    ]);
    expect(answerJudge('Generate a JSON object.', 'normal')).toBe('{}');
  });

  it('plays the judge failures: not JSON, a refusal, evidence named from another passage, no statements, a verdict it does not know', () => {
    expect(() => JSON.parse(answerJudge(message, 'malformed_json'))).toThrow();
    expect(answerJudge(message, 'refuse')).toMatch(/^I'm sorry/);
    expect(JSON.parse(answerJudge(message, 'evidence_elsewhere')).statements[0].chunk_id).toBe('p"1-other');
    const elsewhere = JSON.parse(answerJudge(two, 'evidence_elsewhere')).statements;
    expect(elsewhere.map((s: { chunk_id: string }) => s.chunk_id)).toEqual(['p1', 'p1']);
    expect(answerJudge(message, 'no_statements')).toBe('{"statements":[]}');
    expect(
      JSON.parse(answerJudge(two, 'drop_statement')).statements.map((s: { verdict: string }) => s.verdict),
    ).toEqual(['supported']);
    const unknown = JSON.parse(answerJudge(two, 'unknown_verdict')).statements;
    expect(unknown.map((s: { verdict: string }) => s.verdict)).toEqual(['mostly_true', 'contradicted']);
  });
});

describe('flipNegation', () => {
  it('takes a negation away, or puts one in, so the sentence says the opposite', () => {
    expect(flipNegation('URDF cannot describe loops.')).toBe('URDF can describe loops.');
    expect(flipNegation('It is not here.')).toBe('It is here.');
    expect(flipNegation("It doesn't work.")).toBe('It does work.');
    expect(flipNegation('The joint is fixed.')).toBe('The joint is not fixed.');
    expect(flipNegation('The node publishes data.')).toBe('The node does not publish data.');
    expect(flipNegation('`isaac_ros_visual_slam` implements odometry.')).toBe(
      '`isaac_ros_visual_slam` does not implement odometry.',
    );
    expect(flipNegation('Nodes exchange data by publishing messages on topics.')).toBe(
      'It is not true that nodes exchange data by publishing messages on topics.',
    );
  });
});
