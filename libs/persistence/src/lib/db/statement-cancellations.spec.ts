import { cancelReason } from './statement-cancellations';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('cancelReason', () => {
  it('tells the server’s statement_timeout from a cancel request and from the client’s deadline', () => {
    expect(cancelReason(pgError('57014', 'canceling statement due to statement timeout'))).toBe(
      'statement_timeout',
    );
    expect(cancelReason(pgError('57014', 'canceling statement due to user request'))).toBe('cancel_request');
    expect(cancelReason(new Error('Query read timeout'))).toBe('client_deadline');
  });

  it('leaves every other failure alone', () => {
    expect(cancelReason(pgError('22012', 'division by zero'))).toBeUndefined();
    expect(
      cancelReason(pgError('57P01', 'terminating connection due to administrator command')),
    ).toBeUndefined();
    expect(cancelReason('57014')).toBeUndefined();
  });
});
