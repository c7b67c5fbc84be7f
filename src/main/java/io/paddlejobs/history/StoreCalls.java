package io.paddlejobs.history;

import io.paddlejobs.job.HistoryUnavailableException;
import java.util.function.Supplier;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * How the history calls its database, and what a failure means. Only a store that cannot be reached
 * (no connection, a connection lost, a timeout, a lock that was not had in time) is unavailable: a
 * {@link HistoryUnavailableException}, worth trying again. Anything else the database refuses (a value
 * it does not take, a constraint) it will refuse again, so it is thrown as Spring's own
 * {@code DataAccessException}, for the caller to report once rather than retry for ever.
 */
final class StoreCalls {

    /** How often a write is tried when concurrent writers of its rows keep getting there first. */
    private static final int WRITE_TRIES = 5;

    private final TransactionTemplate transactions;

    StoreCalls(TransactionTemplate transactions) {
        this.transactions = transactions;
    }

    /**
     * Runs the statements in one transaction, again when a concurrent writer of the same rows got there
     * first (another replica of the service, or this one's recorder beside a submit): the database refuses
     * the second insert of a key, and the next try finds the first's row. Each write replaces what it
     * writes, so the later one stands, as if they had taken turns.
     */
    <T> T written(Supplier<T> statements) {
        for (int tries = 1; ; tries++) {
            try {
                return read(() -> transactions.execute(tx -> statements.get()));
            } catch (HistoryUnavailableException e) {
                if (!(e.getCause() instanceof ConcurrencyFailureException) || tries == WRITE_TRIES) {
                    throw e;
                }
            } catch (DuplicateKeyException raced) {
                if (tries == WRITE_TRIES) {
                    throw new HistoryUnavailableException(raced);
                }
            }
        }
    }

    /** Runs one call; a store that cannot be reached is a {@link HistoryUnavailableException}. */
    static <T> T read(Supplier<T> call) {
        try {
            return call.get();
        } catch (TransientDataAccessException | RecoverableDataAccessException | DataAccessResourceFailureException
                 | TransactionException unreachable) {
            throw new HistoryUnavailableException(unreachable);
        }
    }

    /**
     * Text as the store keeps it: PostgreSQL's {@code text} cannot hold U+0000, which a replica may well
     * print (a progress bar, a crash dump), so it is kept as U+FFFD, as a decoder keeps a byte it cannot
     * read; and at most {@code max} characters.
     */
    static String storable(String text, int max) {
        if (text == null) {
            return null;
        }
        String kept = text.length() <= max ? text : text.substring(0, max);
        return kept.indexOf('\0') < 0 ? kept : kept.replace('\0', '\uFFFD');
    }
}
