import { describe, expect, it } from 'vitest';
import { cosineSimilarity, embedText } from '../../sandbox/cohere/embed-text.ts';

const INSTALL =
  'To install ROS 2 Humble on Ubuntu 22.04, first add the ROS 2 apt repository and its signing key. Then update the ' +
  'package index and install the ros-humble-desktop package, which brings the core libraries, RViz and the demo ' +
  'nodes. Finally, source the setup script in every new terminal so that the ros2 command is found.';
const TOPICS =
  'Nodes exchange data by publishing messages on topics. A publisher sends messages of one type to a named topic, ' +
  'and every subscriber to that topic receives a copy. Topics are anonymous: a publisher does not know who listens.';
const GAZEBO =
  'Gazebo simulates robots in realistic three-dimensional worlds with physics, sensors and lighting. You describe ' +
  'the robot in a URDF file, spawn it into a world, and bridge the simulated camera and lidar data to your nodes.';

function similarity(a: string, b: string): number {
  return cosineSimilarity(embedText(a), embedText(b));
}

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
}

describe('embedText', () => {
  it('returns 1024 floats of unit length by default', () => {
    // Act
    const vector = embedText(INSTALL);

    // Assess
    expect({ length: vector.length, norm: norm(vector) }).toEqual({ length: 1024, norm: expect.closeTo(1, 9) });
  });

  it('returns the requested number of dimensions, still of unit length', () => {
    // Act
    const vector = embedText(INSTALL, 64);

    // Assess
    expect({ length: vector.length, norm: norm(vector) }).toEqual({ length: 64, norm: expect.closeTo(1, 9) });
  });

  it('gives the same vector for the same text every time', () => {
    // Act
    const first = embedText(TOPICS);
    const second = embedText(TOPICS);

    // Assess
    expect(second).toEqual(first);
  });

  it('gives a unit vector to a text made only of stop words, and to an empty text', () => {
    // Act
    const norms = [embedText('What is it?'), embedText('')].map(norm);

    // Assess
    expect(norms).toEqual([expect.closeTo(1, 9), expect.closeTo(1, 9)]);
  });

  // The documented scale that golden-query thresholds are calibrated to (see embed-text.ts).
  it('scores a question paraphrasing a passage between 0.3 and 0.6', () => {
    // Act
    const scores = [
      similarity('How do I install ROS 2 on Ubuntu?', INSTALL),
      similarity('How do publishers and subscribers exchange messages on a topic?', TOPICS),
      similarity('How can I simulate a robot with sensors in Gazebo?', GAZEBO),
    ];

    // Assess
    for (const score of scores) expect(score).toBeGreaterThan(0.3);
    for (const score of scores) expect(score).toBeLessThan(0.6);
  });

  it('scores a question sharing one content word with a passage between 0.05 and 0.25', () => {
    // Act
    const score = similarity('Which team won the football world cup?', GAZEBO);

    // Assess
    expect(score).toBeGreaterThan(0.05);
    expect(score).toBeLessThan(0.25);
  });

  it('scores unrelated text between -0.1 and 0.1', () => {
    // Act
    const scores = [INSTALL, TOPICS, GAZEBO].flatMap((passage) => [
      similarity('What is the best recipe for chocolate cake?', passage),
      similarity('Which bank has the lowest mortgage rate?', passage),
    ]);

    // Assess
    for (const score of scores) expect(Math.abs(score)).toBeLessThan(0.1);
  });

  it('ranks the paraphrased passage above the other passages', () => {
    // Prepare
    const question = 'How do publishers and subscribers exchange messages on a topic?';

    // Act
    const ranked = [INSTALL, TOPICS, GAZEBO].sort((a, b) => similarity(question, b) - similarity(question, a));

    // Assess
    expect(ranked[0]).toBe(TOPICS);
  });
});
