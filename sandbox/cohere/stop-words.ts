/**
 * English stop words, the usual retrieval list (close to NLTK's and Lucene's): function words that carry no topic,
 * plus the question words a golden query starts with, so "How do I ..." matches on what follows.
 */

/** Lowercase stop words; contractions are matched on their stem ("don't" -> "don"). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren as at be because been before being below between
  both but by can cannot could couldn did didn do does doesn doing don down during each either else etc ever every few
  for from further get gets got had hadn has hasn have haven having he her here hers herself him himself his how however
  i if in into is isn it its itself just let ll me might more most must mustn my myself need no nor not now of off on
  once only or other ought our ours ourselves out over own per please re same shall shan she should shouldn so some such
  than that the their theirs them themselves then there these they this those through thus to too under until up upon
  us use used using ve very via was wasn we were weren what whatever when where whether which while who whom whose why
  will with within without won would wouldn yes yet you your yours yourself yourselves`.split(/\s+/),
);
