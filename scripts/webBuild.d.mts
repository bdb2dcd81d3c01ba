export declare function buildWeb(): void;
export declare function buildWebIfStale(): void;
