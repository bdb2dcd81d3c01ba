export declare function buildWebIfStale(): void;
export declare function webIsStale(): boolean;
