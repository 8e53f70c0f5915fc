import { describe, expect, it } from 'vitest';
import { ABSTENTION_TEXT, answerFromDocuments, type ChatDocument } from '../../sandbox/cohere/answer-from-documents.ts';

function texts(documents: ChatDocument[], question: string): string {
  return answerFromDocuments({ question, documents, behaviour: 'normal' }).text;
}

describe('answerFromDocuments', () => {
  it('skips markdown headings and short stubs, and strips list markers from the sentences it quotes', () => {
    // Prepare
    const documents = [
      { id: 'a', data: { text: '## Launch files\n\n- Launch files start many nodes at once.\n- Launch files' } },
    ];

    // Act
    const answer = texts(documents, 'What do launch files start?');

    // Assess
    expect(answer).toBe('Launch files start many nodes at once.');
  });

  it('quotes at most three sentences, the best overlap first and document order breaking ties', () => {
    // Prepare
    const documents = [
      { id: 'a', data: { text: 'Rviz shows robot state. Rviz shows sensor data live. Rviz shows robot data too.' } },
      { id: 'b', data: { text: 'Rviz shows robot sensor data and maps in one window.' } },
    ];

    // Act
    const answer = texts(documents, 'How does rviz show robot sensor data?');

    // Assess
    expect(answer).toBe(
      'Rviz shows robot sensor data and maps in one window. Rviz shows sensor data live. Rviz shows robot data too.',
    );
  });

  it('reads a document snippet when it has no text field, and quotes a sentence repeated across documents once', () => {
    // Prepare
    const documents = [
      { id: 'a', data: { snippet: 'Colcon builds every package in the workspace.' } },
      { id: 'b', data: { text: 'Colcon builds every package in the workspace.' } },
    ];

    // Act
    const answer = answerFromDocuments({ question: 'What does colcon build?', documents, behaviour: 'normal' });

    // Assess
    expect(answer.citations.map((citation) => citation.sources.map((source) => source.id))).toEqual([['a']]);
  });

  it('abstains on a question made only of stop words', () => {
    // Prepare
    const documents = [{ id: 'a', data: { text: 'What is it that you want to know about this?' } }];

    // Act
    const answer = texts(documents, 'What is it?');

    // Assess
    expect(answer).toBe(ABSTENTION_TEXT);
  });
});
