import { Cohere, CohereClientV2 } from 'cohere-ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ABSTENTION_TEXT, type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';

const MODEL = 'command-a-03-2025';
const DOCUMENTS = [
  {
    id: 'chunk-install',
    data: {
      text:
        'To install ROS 2 Humble on Ubuntu 22.04, first add the ROS 2 apt repository. Then install the ' +
        'ros-humble-desktop package. Finally, source the setup script in every new terminal.',
      source_url: 'https://book.example/docs/module-1/install',
    },
  },
  {
    id: 'chunk-topics',
    data: {
      text:
        'Nodes exchange data by publishing messages on topics. Every subscriber to a topic receives a copy of ' +
        'each message. Topics are anonymous, which keeps nodes loosely coupled.',
    },
  },
];
const ANSWERABLE = 'How do nodes publish messages on topics?';
const UNANSWERABLE = 'What is the best recipe for chocolate cake?';

let standIn: CohereStandIn;
let client: CohereClientV2;

beforeAll(async () => {
  standIn = await startCohereStandIn();
  client = new CohereClientV2({ baseUrl: standIn.url, token: 'any-token', maxRetries: 0 });
});

afterAll(async () => {
  await standIn.stop();
});

beforeEach(() => {
  standIn.setChatBehaviour('normal');
  standIn.resetCounts();
});

async function ask(question: string, documents: Cohere.V2ChatRequestDocumentsItem[] = DOCUMENTS) {
  const response = await client.chat({ model: MODEL, messages: [{ role: 'user', content: question }], documents });
  const content = response.message.content?.[0];
  return { response, text: content?.type === 'text' ? content.text : '', citations: response.message.citations };
}

describe('the Cohere stand-in, /v2/chat through CohereClientV2', () => {
  it('answers with the sentences that share enough with the question, each cited with its span and document', async () => {
    // Act
    const { response, text } = await ask(ANSWERABLE);

    // Assess
    const sentences = [
      'Nodes exchange data by publishing messages on topics.',
      'Every subscriber to a topic receives a copy of each message.',
      'Topics are anonymous, which keeps nodes loosely coupled.',
    ];
    expect(text).toBe(sentences.join(' '));
    const source = { type: 'document', id: 'chunk-topics', document: { id: 'chunk-topics', ...DOCUMENTS[1]?.data } };
    let start = 0;
    const expected = sentences.map((sentence) => {
      const citation = { start, end: start + sentence.length, text: sentence, sources: [source], type: 'TEXT_CONTENT' };
      start += sentence.length + 1;
      return citation;
    });
    expect(response.message.citations).toEqual(expected);
  });

  it('cites spans that equal the answer text between start and end, from given documents only', async () => {
    // Act
    const { text, citations = [] } = await ask('How do I install ROS 2 and publish messages on topics?');

    // Assess
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) {
      expect(text.slice(citation.start, citation.end)).toBe(citation.text);
      expect(citation.sources?.map((source) => source.id)).toEqual([expect.stringMatching(/^chunk-(install|topics)$/)]);
    }
  });

  it('reports the finish reason and the words of the question, the documents and the answer as tokens', async () => {
    // Act
    const { response } = await ask(ANSWERABLE);

    // Assess: 7 question words + 32 and 27 document words in; the three cited sentences' 27 words out
    expect({ finishReason: response.finishReason, usage: response.usage }).toEqual({
      finishReason: 'COMPLETE',
      usage: {
        billedUnits: { inputTokens: 66, outputTokens: 27 },
        tokens: { inputTokens: 66, outputTokens: 27 },
      },
    });
  });

  it('names documents given as plain strings doc:<index>, as Cohere does', async () => {
    // Act
    const { citations = [] } = await ask(ANSWERABLE, ['Gazebo simulates worlds.', 'Nodes publish messages on topics.']);

    // Assess
    expect(citations.flatMap((citation) => citation.sources?.map((source) => source.id))).toEqual(['doc:1']);
  });

  it('abstains without citations when no sentence shares enough with the question', async () => {
    // Act
    const { response } = await ask(UNANSWERABLE);

    // Assess
    expect(response.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: ABSTENTION_TEXT }] });
  });

  it('abstains when no document is given', async () => {
    // Act
    const { text } = await ask(ANSWERABLE, []);

    // Assess
    expect(text).toBe(ABSTENTION_TEXT);
  });

  it('leaves citations out when citation_options turn them off', async () => {
    // Act
    const response = await client.chat({
      model: MODEL,
      messages: [{ role: 'user', content: ANSWERABLE }],
      documents: DOCUMENTS,
      citationOptions: { mode: 'OFF' },
    });

    // Assess
    expect(response.message.citations).toBeUndefined();
  });

  it('refuses an empty message list with a BadRequestError', async () => {
    // Act
    const error = await client.chat({ model: MODEL, messages: [] }).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(Cohere.BadRequestError);
    expect(error).toMatchObject({ body: { message: 'invalid request: messages must contain at least one message' } });
  });

  it('refuses a wrong token when a key is configured', async () => {
    // Prepare
    const guarded = await startCohereStandIn({ apiKey: 'right' });
    const intruder = new CohereClientV2({ baseUrl: guarded.url, token: 'wrong', maxRetries: 0 });

    // Act
    const error = await intruder
      .chat({ model: MODEL, messages: [{ role: 'user', content: ANSWERABLE }] })
      .catch((caught: unknown) => caught)
      .finally(() => guarded.stop());

    // Assess
    expect(error).toBeInstanceOf(Cohere.UnauthorizedError);
  });

  it('counts chat requests', async () => {
    // Prepare
    await ask(ANSWERABLE);
    await ask(UNANSWERABLE);

    // Act
    const counts = standIn.requestCounts();

    // Assess
    expect(counts).toEqual({ embed: 0, chat: 2 });
  });
});

describe('the Cohere stand-in, chat told to misbehave', () => {
  it('cite_unknown_document: gives the same answer but cites a document that was not given', async () => {
    // Prepare
    const honest = await ask(ANSWERABLE);
    standIn.setChatBehaviour('cite_unknown_document');

    // Act
    const { text, citations = [] } = await ask(ANSWERABLE);

    // Assess
    expect(text).toBe(honest.text);
    const cited = citations.flatMap((citation) => citation.sources?.map((source) => source.id));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.filter((id) => DOCUMENTS.some((document) => document.id === id))).toEqual([]);
  });

  it('no_citations: gives the same answer without any citation', async () => {
    // Prepare
    const honest = await ask(ANSWERABLE);
    standIn.setChatBehaviour('no_citations');

    // Act
    const { text, citations } = await ask(ANSWERABLE);

    // Assess
    expect({ text, citations }).toEqual({ text: honest.text, citations: undefined });
  });

  it('answer_unanswerable: answers, with a citation, a question it should refuse', async () => {
    // Prepare
    standIn.setChatBehaviour('answer_unanswerable');

    // Act
    const { text, citations = [] } = await ask(UNANSWERABLE);

    // Assess
    expect(text).not.toBe(ABSTENTION_TEXT);
    expect(citations.map((citation) => text.slice(citation.start, citation.end) === citation.text)).toEqual([true]);
  });

  it('answer_unanswerable: still answers an answerable question honestly', async () => {
    // Prepare
    const honest = await ask(ANSWERABLE);
    standIn.setChatBehaviour('answer_unanswerable');

    // Act
    const answer = await ask(ANSWERABLE);

    // Assess
    expect({ text: answer.text, citations: answer.citations }).toEqual({
      text: honest.text,
      citations: honest.citations,
    });
  });

  it('misplaced_span: returns citations whose start and end do not hold their text', async () => {
    // Prepare
    standIn.setChatBehaviour('misplaced_span');

    // Act
    const { text, citations = [] } = await ask(ANSWERABLE);

    // Assess
    expect(citations.length).toBeGreaterThan(0);
    expect(citations.filter((citation) => text.slice(citation.start, citation.end) === citation.text)).toEqual([]);
  });
});

describe('the Cohere stand-in, chat making claims its documents do not support', () => {
  const INSTALL = 'How do I install ROS 2 Humble on Ubuntu?';

  it('invent_number: changes the first number of the answer and still cites the real chunk', async () => {
    // Prepare
    const honest = await ask(INSTALL);
    standIn.setChatBehaviour('invent_number');

    // Act
    const { text, citations = [] } = await ask(INSTALL);

    // Assess
    expect(honest.text).toMatch(/^To install ROS 2 Humble on Ubuntu 22\.04/);
    expect(text).toMatch(/^To install ROS 64 Humble on Ubuntu 22\.04/);
    expect(citations[0]?.sources?.map((source) => source.id)).toEqual(['chunk-install']);
    expect(citations.every((citation) => text.slice(citation.start, citation.end) === citation.text)).toBe(true);
  });

  it('invent_number: adds an invented figure to a sentence that has none', async () => {
    // Prepare
    standIn.setChatBehaviour('invent_number');

    // Act
    const { text } = await ask(ANSWERABLE);

    // Assess
    expect(text).toMatch(/^Nodes exchange data by publishing messages on topics, and it needs 64 GB of RAM\. /);
  });

  it('flip_negation: says the opposite of the first sentence and still cites the real chunk', async () => {
    // Prepare
    standIn.setChatBehaviour('flip_negation');

    // Act
    const { text, citations = [] } = await ask(ANSWERABLE);

    // Assess
    expect(text).toMatch(/^It is not true that nodes exchange data by publishing messages on topics\. /);
    expect(citations.every((citation) => text.slice(citation.start, citation.end) === citation.text)).toBe(true);
  });

  it('cite_other_document: gives the same answer but cites another given document for each sentence', async () => {
    // Prepare
    const honest = await ask(ANSWERABLE);
    standIn.setChatBehaviour('cite_other_document');

    // Act
    const { text, citations = [] } = await ask(ANSWERABLE);

    // Assess
    expect(text).toBe(honest.text);
    expect(citations.flatMap((citation) => citation.sources?.map((source) => source.id))).toEqual([
      'chunk-install',
      'chunk-install',
      'chunk-install',
    ]);
  });

  it('paraphrase: rewords each cited sentence without adding a fact', async () => {
    // Prepare
    standIn.setChatBehaviour('paraphrase');

    // Act
    const { text, citations = [] } = await ask(ANSWERABLE);

    // Assess
    expect(citations.map((citation) => citation.text)).toEqual([
      'In short: Nodes exchange data by publishing message on topics.',
      'In short: Every subscriber to a topic receive a copy of each message.',
      'In short: Topics are anonymous, which keep node loosely coupled.',
    ]);
    expect(citations.every((citation) => text.slice(citation.start, citation.end) === citation.text)).toBe(true);
  });

  it('misbehaves on one question only when told so, and answers the others honestly', async () => {
    // Prepare
    const honest = await ask(ANSWERABLE);
    standIn.setChatBehaviour('invent_number', { question: INSTALL });

    // Act
    const [other, targeted] = [await ask(ANSWERABLE), await ask(INSTALL)];

    // Assess
    expect(other.text).toBe(honest.text);
    expect(targeted.text).toContain('ROS 64 Humble');
  });
});
