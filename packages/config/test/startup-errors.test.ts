import { unreachable } from '../src/startup';

const PG = 'postgresql://markwright:secret@127.0.0.1:5432/markwright';
const error = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('start-up messages about infrastructure', () => {
  it.each([
    [
      'a password is asked and DATABASE_URL has none',
      error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
    ],
    ['the password is wrong', error('password authentication failed for user "markwright"', '28P01')],
    ['no pg_hba.conf rule lets the client in', error('no pg_hba.conf entry for host "127.0.0.1"', '28000')],
  ])(
    'When PostgreSQL answers but %s, then the message is a login problem with the fix, and the password is hidden',
    (_, cause) => {
      expect(unreachable('PostgreSQL', PG, cause).message).toBe(
        `PostgreSQL at postgresql://markwright:***@127.0.0.1:5432/markwright refused the login (${cause.message}): ` +
          'let local connections in without a password (`bash scripts/setup-system.sh` adds trust rules for 127.0.0.1 and ::1 to pg_hba.conf) or put the user and password in DATABASE_URL.',
      );
    },
  );

  it('When Redis or RabbitMQ refuse the credentials, then the message names the setting holding them', () => {
    expect(unreachable('Redis', 'redis://127.0.0.1:6379', error('NOAUTH Authentication required.')).message).toMatch(
      /^Redis at redis:\/\/127\.0\.0\.1:6379 refused the login \(NOAUTH Authentication required\.\): put the password in REDIS_URL/,
    );
    expect(
      unreachable(
        'RabbitMQ',
        'amqp://u:p@127.0.0.1:5672',
        error('Handshake terminated by server: 403 (ACCESS-REFUSED)'),
      ).message,
    ).toMatch(
      /^RabbitMQ at amqp:\/\/u:\*\*\*@127\.0\.0\.1:5672 refused the login .*: check the user and password in AMQP_URL/,
    );
  });

  it('When nothing answers, then the message still says the server is not reachable and how to start it', () => {
    expect(unreachable('PostgreSQL', PG, error('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')).message).toMatch(
      /^PostgreSQL is not reachable at .*: start it with/,
    );
  });
});

describe('start-up messages through Prisma', () => {
  it('When Prisma wraps the driver error (its message starts with a blank line), then the driver code and message are used', () => {
    const wrapped = Object.assign(new Error('\nInvalid `prisma.$queryRaw()` invocation:\n\nRaw query failed.'), {
      code: 'P2010',
      meta: {
        driverAdapterError: {
          cause: {
            originalCode: '28000',
            originalMessage: 'role "nobody" does not exist',
            kind: 'DatabaseAccessDenied',
          },
        },
      },
    });
    expect(unreachable('PostgreSQL', PG, wrapped).message).toMatch(
      /^PostgreSQL at .* refused the login \(role "nobody" does not exist\): let local connections in/,
    );
  });
});
